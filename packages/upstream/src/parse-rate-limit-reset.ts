import type { RateLimitReset } from '@signalbox/core';
import { parseRetryAfterMs } from './parse-retry-after';

/**
 * When a rate-limited upstream takes requests again, in ms from `now` (epoch ms): the upstream's
 * own `retry-after-ms` / `retry-after` first; else the latest reset of a limit it says is used up;
 * else the earliest reset it names. `resets` are the limits its protocol's headers describe (the
 * codec descriptor's `readRateLimitResets`). `undefined` when it names none.
 */
export function parseRateLimitResetMs(
  headers: Record<string, string | string[] | undefined>,
  now: number,
  resets: readonly RateLimitReset[],
): number | undefined {
  const retryAfter = parseRetryAfterMs(headers, now);
  if (retryAfter !== undefined) return retryAfter;
  let exhausted: number | undefined;
  let earliest: number | undefined;
  for (const { inMs, exhausted: usedUp } of resets) {
    earliest = earliest === undefined ? inMs : Math.min(earliest, inMs);
    if (usedUp) exhausted = Math.max(exhausted ?? 0, inMs);
  }
  return exhausted ?? earliest;
}
