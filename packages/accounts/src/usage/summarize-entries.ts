import { bucketStart, nearestRankPercentile } from './usage-buckets';
import type { UsageBucket, UsageEntry, UsageGroupBy, UsageSummaryRow } from './usage-ledger';

/** The value a row is grouped by, as text; `undefined` when the row has none. */
export function usageGroupValue(entry: UsageEntry, groupBy: UsageGroupBy): string | undefined {
  switch (groupBy) {
    case 'model':
      return entry.model;
    case 'key':
      return entry.keyId;
    case 'status':
      return String(entry.status);
    case 'protocol':
      return entry.protocol;
    case 'upstream':
      return entry.upstream;
  }
}

/**
 * Totals per bucket (and group) of already-filtered rows, oldest bucket first and groups in text
 * order within a bucket (the rows without a group first): the memory store's summary, the reference
 * the SQL stores must match.
 */
export function summarizeEntries(
  entries: readonly UsageEntry[],
  options: { bucket: UsageBucket; groupBy?: UsageGroupBy },
): UsageSummaryRow[] {
  const cells = new Map<string, { start: number; group: string | undefined; entries: UsageEntry[] }>();
  for (const entry of entries) {
    const start = bucketStart(entry.time, options.bucket);
    const group = options.groupBy ? usageGroupValue(entry, options.groupBy) : undefined;
    const cellKey = JSON.stringify([start, group ?? null]);
    const cell = cells.get(cellKey) ?? { start, group, entries: [] };
    cell.entries.push(entry);
    cells.set(cellKey, cell);
  }
  return [...cells.values()]
    .sort((left, right) => left.start - right.start || compareGroups(left.group, right.group))
    .map(({ start, group, entries: cellEntries }) => {
      const latencies = cellEntries.map(entry => entry.latencyMs).sort((left, right) => left - right);
      const sum = (pick: (entry: UsageEntry) => number) => cellEntries.reduce((total, entry) => total + pick(entry), 0);
      return {
        bucketStart: start,
        ...(group !== undefined && { group }),
        requests: cellEntries.length,
        inputTokens: sum(entry => entry.inputTokens),
        outputTokens: sum(entry => entry.outputTokens),
        cacheReadTokens: sum(entry => entry.cacheReadTokens),
        cacheWriteTokens: sum(entry => entry.cacheWriteTokens),
        costMicros: sum(entry => entry.costMicros),
        cacheSavingsMicros: sum(entry => entry.cacheSavingsMicros),
        errors: cellEntries.filter(entry => entry.status >= 400).length,
        latencyP50Ms: nearestRankPercentile(latencies, 50),
        latencyP95Ms: nearestRankPercentile(latencies, 95),
      };
    });
}

/** Absent first, then by code unit order, as SQLite's default BINARY collation sorts NULL and text. */
function compareGroups(left: string | undefined, right: string | undefined): number {
  if (left === right) return 0;
  if (left === undefined) return -1;
  if (right === undefined) return 1;
  return left < right ? -1 : 1;
}
