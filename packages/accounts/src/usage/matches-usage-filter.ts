import type { UsageEntry, UsageFilter } from './usage-ledger';

/** True when `entry` passes every filter given (`from` inclusive, `to` exclusive); the memory store's WHERE. */
export function matchesUsageFilter(entry: UsageEntry, filter: UsageFilter): boolean {
  return (
    (filter.from === undefined || entry.time >= filter.from) &&
    (filter.to === undefined || entry.time < filter.to) &&
    (filter.accountId === undefined || entry.accountId === filter.accountId) &&
    (filter.keyId === undefined || entry.keyId === filter.keyId) &&
    (filter.model === undefined || entry.model === filter.model) &&
    (filter.status === undefined || entry.status === filter.status) &&
    (filter.outcome === undefined || entry.outcome === filter.outcome) &&
    (filter.protocol === undefined || entry.protocol === filter.protocol)
  );
}

/** Newest first: later `time` first, then the greater request id, the order of every ledger page. */
export function newestFirst(left: UsageEntry, right: UsageEntry): number {
  if (left.time !== right.time) return right.time - left.time;
  return left.requestId < right.requestId ? 1 : left.requestId > right.requestId ? -1 : 0;
}
