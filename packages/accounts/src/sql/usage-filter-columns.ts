import type { UsageGroupBy } from '../usage/usage-ledger';

/** Each equality filter of a ledger query and the `usage` column it compares. */
export const USAGE_EQUALITY_FILTERS = [
  ['accountId', 'account_id'],
  ['keyId', 'key_id'],
  ['model', 'model'],
  ['status', 'status'],
  ['outcome', 'outcome'],
  ['protocol', 'protocol'],
] as const;

/** The column each summary grouping reads; status is grouped as text, like the other groups. */
export const USAGE_GROUP_EXPRESSIONS: Readonly<Record<UsageGroupBy, string>> = {
  model: 'model',
  key: 'key_id',
  status: 'CAST(status AS TEXT)',
  protocol: 'protocol',
  upstream: 'upstream',
};
