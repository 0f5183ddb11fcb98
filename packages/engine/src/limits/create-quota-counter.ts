import { IMPLIED_KEY_LIMITS } from '@signalbox/accounts';
import { createFixedWindows } from './create-fixed-windows';
import { quotaRefusal } from './limit-refusals';

/** Hours in a key's quota period when its limits set none (30 days). */
export const DEFAULT_QUOTA_PERIOD_HOURS = IMPLIED_KEY_LIMITS.quotaPeriodHours;

/** A key's long-period token quota (see `createQuotaCounter`); in memory, so synchronous. */
export type QuotaCounter = {
  /** Throws `QUOTA_EXCEEDED` (429, `Retry-After` = when the period ends) once the quota is used up. */
  check(keyId: string, tokens: number, hours?: number): void;
  /** Adds tokens a request used. Never throws. */
  add(keyId: string, tokens: number, quota: number, hours?: number): void;
};

/**
 * A key's token quota over a long period (`quotaTokens` per `quotaPeriodHours`), a fixed window on
 * the given clock (default `Date.now`) that opens with the first tokens counted. Unlike the rate
 * windows it is checked, not reserved: a request is refused once the quota is used up, and what a
 * request really used is added afterwards, so concurrent requests can overshoot it by their own size.
 */
export function createQuotaCounter(options: { now?: () => number } = {}): QuotaCounter {
  const periods = createFixedWindows(options.now ?? Date.now);
  const counterName = (keyId: string, tokens: number, hours: number) => `quota:${tokens}:${hours}:${keyId}`;
  return {
    check(keyId, tokens, hours = DEFAULT_QUOTA_PERIOD_HOURS) {
      const period = periods.read(counterName(keyId, tokens, hours));
      if (!period || period.used < tokens) return;
      throw quotaRefusal(tokens, hours, period.msLeft);
    },
    add(keyId, tokens, quota, hours = DEFAULT_QUOTA_PERIOD_HOURS) {
      if (!(tokens > 0) || !Number.isFinite(tokens)) return;
      periods.add(counterName(keyId, quota, hours), Math.ceil(tokens), hours * 3_600_000);
    },
  };
}
