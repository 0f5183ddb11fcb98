import type { AccountStore } from '@signalbox/accounts';
import { usageCommit } from './describe-usage-ledger-contract';

/** Takes a ledger back to before its upstream kind column; both SQL stores run it. */
export const DROP_UPSTREAM_KIND_COLUMN = 'ALTER TABLE usage DROP COLUMN upstream_kind; ';

const before = usageCommit({ requestId: 'req_before_kinds', upstream: 'openai' });

/** Writes the row an older build would have: no kind named. */
export async function commitRowBeforeUpstreamKinds(store: AccountStore): Promise<void> {
  await store.commitUsage([before]);
}

/** After the upgrade, the older row names no kind (the field is absent) and a new row keeps its own. */
export async function expectUpstreamKindsAfterUpgrade(store: AccountStore): Promise<void> {
  await store.commitUsage([usageCommit({ requestId: 'req_after_kinds', time: before.entry.time + 1, upstream: 'azure', upstreamKind: 'azure-openai' })]);
  const { entries } = await store.listUsage({}, { limit: 5 });
  expect(entries.map(entry => [entry.requestId, entry.upstreamKind])).toEqual([
    ['req_after_kinds', 'azure-openai'],
    ['req_before_kinds', undefined],
  ]);
  expect('upstreamKind' in entries[1]!).toBe(false);
}
