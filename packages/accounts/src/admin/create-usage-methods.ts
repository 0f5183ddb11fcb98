import { invalidParameter } from '@signalbox/core';
import type { AccountStore } from '../store/account-store';
import type { UsageBucket, UsageFilter } from '../usage/usage-ledger';
import type { ConsoleIdentity } from './console-identity';
import { found, maySee, parseInput, scopedAccountId } from './console-scope';
import { exportCsvPages, formatUsageCsvRow, USAGE_CSV_COLUMNS } from './format-usage-csv';
import { presentBalanceEvent, presentUsageEntry, presentUsageSummaryRow } from './present-usage-records';
import { MAX_USAGE_PAGE, balanceEventsQuerySchema, usagePageQuerySchema, usageSummaryQuerySchema } from './usage-query-schemas';

const BUCKET_MS: Readonly<Record<UsageBucket, number>> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
/** A summary without `from` covers this many buckets back from `to`: an hour of minutes, two days of hours, 90 days. */
const DEFAULT_SUMMARY_BUCKETS: Readonly<Record<UsageBucket, number>> = { minute: 60, hour: 48, day: 90 };
/** The most buckets one summary may span, so a minute-bucket query cannot ask for millions of them. */
export const MAX_SUMMARY_BUCKETS = 10_000;

export type UsageMethodsOptions = {
  /** The store whose ledger is read. */
  store: AccountStore;
  now: () => number;
};

/**
 * The ledger as the console reads it: pages of rows, a CSV export, per-bucket summaries and an
 * account's balance events. Queries are validated (400 naming the parameter); an account identity
 * sees only its own account's rows, whatever `accountId` it asks for.
 */
export function createUsageMethods(options: UsageMethodsOptions) {
  const { store, now } = options;
  return {
    /**
     * `GET /admin/usage`: one page of rows matching the query's filters, newest first.
     * Query: `from`, `to` (unix ms or ISO 8601), `model`, `keyId`, `accountId`, `status`, `outcome`,
     * `protocol`, `limit` (1–1000, default 50), `cursor` (a previous page's `nextCursor`).
     */
    async listUsage(identity: ConsoleIdentity, query: unknown) {
      const { limit, cursor, ...filters } = parseInput(usagePageQuerySchema, query);
      const filter = scopeFilter(identity, filters);
      if (!filter) return { data: [], nextCursor: null };
      const page = await store.listUsage(filter, { limit, ...(cursor !== undefined && { cursor }) });
      return { data: page.entries.map(presentUsageEntry), nextCursor: page.nextCursor ?? null };
    },

    /**
     * The same rows as CSV (a header row, then one line per row, CRLF, RFC 4180 quoting, formula
     * cells neutralised), read from the ledger page by page as the consumer pulls. The query is
     * validated before this resolves, so a bad one is a 400 before anything is sent. `limit` is the
     * page size read at a time (default 1000); every matching row is exported.
     */
    async exportUsageCsv(identity: ConsoleIdentity, query: unknown): Promise<AsyncIterable<string>> {
      const withPageSize = query !== null && typeof query === 'object' ? { limit: MAX_USAGE_PAGE, ...query } : query;
      const input = parseInput(usagePageQuerySchema, withPageSize);
      const { limit, cursor: start, ...filters } = input;
      const filter = scopeFilter(identity, filters);
      return exportCsvPages(USAGE_CSV_COLUMNS, filter && (async cursor => {
        const page = await store.listUsage(filter, { limit, ...(cursor !== undefined && { cursor }) });
        return { lines: page.entries.map(entry => formatUsageCsvRow(presentUsageEntry(entry))), nextCursor: page.nextCursor };
      }), start);
    },

    /**
     * `GET /admin/usage/summary`: requests, tokens, cost, errors and p50/p95 latency per bucket
     * (`bucket` minute, hour or day; default hour), per group when `groupBy` is model, key, status,
     * protocol or upstream. Same filters as `listUsage`; `to` defaults to now and `from` to a span
     * back from it; a range of more than `MAX_SUMMARY_BUCKETS` buckets is a 400.
     */
    async summarizeUsage(identity: ConsoleIdentity, query: unknown) {
      const { bucket, groupBy, ...filters } = parseInput(usageSummaryQuerySchema, query);
      const to = filters.to ?? now();
      const from = filters.from ?? to - DEFAULT_SUMMARY_BUCKETS[bucket] * BUCKET_MS[bucket];
      checkSummaryRange(from, to, bucket);
      const range = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
      const filter = scopeFilter(identity, { ...filters, from, to });
      const rows = filter ? await store.summarizeUsage(filter, { bucket, ...(groupBy !== undefined && { groupBy }) }) : [];
      return { bucket, groupBy: groupBy ?? null, ...range, data: rows.map(presentUsageSummaryRow) };
    },

    /** `GET /admin/accounts/:id/balance-events`: the account's opening balance and top-ups, newest first, paged. */
    async listBalanceEvents(identity: ConsoleIdentity, accountId: string, query: unknown = {}) {
      const { limit, cursor } = parseInput(balanceEventsQuerySchema, query);
      if (!maySee(identity, accountId)) throw found(undefined, 'account');
      found(await store.getAccount(accountId), 'account');
      const page = await store.listBalanceEvents(accountId, { limit, ...(cursor !== undefined && { cursor }) });
      return { data: page.events.map(presentBalanceEvent), nextCursor: page.nextCursor ?? null };
    },
  };
}

/** The filter with the identity's account forced in; `undefined` when it can match nothing the identity may see. */
function scopeFilter(identity: ConsoleIdentity, filters: UsageFilter): UsageFilter | undefined {
  const accountId = scopedAccountId(identity, filters.accountId);
  if (accountId === null) return undefined;
  const scoped = Object.fromEntries(Object.entries({ ...filters, accountId }).filter(([, value]) => value !== undefined));
  return scoped as UsageFilter;
}

function checkSummaryRange(from: number, to: number, bucket: UsageBucket): void {
  const invalid = (message: string) => invalidParameter('from', message);
  if (from >= to) throw invalid('must be before to');
  const buckets = Math.ceil((to - from) / BUCKET_MS[bucket]);
  if (buckets > MAX_SUMMARY_BUCKETS) {
    throw invalid(`the range from..to spans ${buckets} ${bucket} buckets, more than ${MAX_SUMMARY_BUCKETS}; narrow it or use a larger bucket`);
  }
}
