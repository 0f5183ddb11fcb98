import type { AccountStore } from '@signalbox/accounts';
import { usageCommit } from './describe-usage-ledger-contract';

/** Takes a ledger back to before its cache-lifetime and savings columns; both SQL stores run it. */
export const DROP_CACHE_LIFETIME_COLUMNS =
  'ALTER TABLE usage DROP COLUMN cache_write_5m_tokens; ALTER TABLE usage DROP COLUMN cache_write_1h_tokens; ALTER TABLE usage DROP COLUMN cache_savings_micros; ';

const before = usageCommit({ requestId: 'req_before_lifetimes', inputTokens: 100, cacheReadTokens: 50, cacheWriteTokens: 30 });

/** Writes the rows an older build would have: one with cache writes, one without. */
export async function commitRowsBeforeCacheLifetimes(store: AccountStore): Promise<void> {
  await store.commitUsage([before, usageCommit({ requestId: 'req_no_writes', time: before.entry.time - 1 })]);
}

/** After the upgrade, the older rows count their writes as 5-minute ones and saved nothing; a new row keeps its own. */
export async function expectCacheLifetimesAfterUpgrade(store: AccountStore): Promise<void> {
  const after = { cacheWriteTokens: 5, cacheWrite5mTokens: 1, cacheWrite1hTokens: 4, cacheSavingsMicros: -3 };
  await store.commitUsage([usageCommit({ requestId: 'req_after_lifetimes', time: before.entry.time + 1, ...after })]);
  const { entries } = await store.listUsage({}, { limit: 5 });
  expect(entries.map(entry => [entry.requestId, entry.cacheWriteTokens, entry.cacheWrite5mTokens, entry.cacheWrite1hTokens, entry.cacheSavingsMicros])).toEqual([
    ['req_after_lifetimes', 5, 1, 4, -3],
    ['req_before_lifetimes', 30, 30, 0, 0],
    ['req_no_writes', 0, 0, 0, 0],
  ]);
}
