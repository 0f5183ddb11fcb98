import type { UsageBucket } from './usage-ledger';

/** The length of each summary bucket in milliseconds; buckets start at multiples of it (UTC). */
export const USAGE_BUCKET_MS: Readonly<Record<UsageBucket, number>> = {
  minute: 60 * 1000,
  hour: 60 * 60 * 1000,
  day: 24 * 60 * 60 * 1000,
};

/** The start (unix milliseconds, UTC) of the bucket `time` falls in. */
export function bucketStart(time: number, bucket: UsageBucket): number {
  const length = USAGE_BUCKET_MS[bucket];
  return Math.floor(time / length) * length;
}

/**
 * The `percent`-th percentile of ascending `sorted` values by the nearest-rank method: the value at
 * 1-based rank ceil(percent × n / 100). Exact (one of the values, no interpolation), so the memory
 * and SQL stores agree to the millisecond; 0 for no values.
 */
export function nearestRankPercentile(sorted: readonly number[], percent: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((percent * sorted.length) / 100);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** How many days of ledger rows a store keeps unless told otherwise: 400, a year plus a month of slack for yearly reports. */
export const DEFAULT_USAGE_RETENTION_DAYS = 400;

/** Retention in milliseconds from a day count (default `DEFAULT_USAGE_RETENTION_DAYS`); it must be a positive integer. */
export function usageRetentionMs(retentionDays: number = DEFAULT_USAGE_RETENTION_DAYS): number {
  if (!Number.isSafeInteger(retentionDays) || retentionDays < 1) throw new Error('usageRetentionDays must be an integer >= 1.');
  return retentionDays * USAGE_BUCKET_MS.day;
}
