import { GatewayError } from '@switchyard/core';
import { RateLimiterMemory } from 'rate-limiter-flexible';

/** Hours in a key's quota period when its limits set none (30 days). */
export const DEFAULT_QUOTA_PERIOD_HOURS = 720;

/**
 * A key's token quota over a long period (`quotaTokens` per `quotaPeriodHours`). Unlike the rate
 * windows it is checked, not reserved: a request is refused once the quota is used up, and what a
 * request really used is added afterwards, so concurrent requests can overshoot it by their own size.
 */
export function createQuotaCounter() {
  const counters = new Map<string, RateLimiterMemory>();
  const counterFor = (tokens: number, hours: number) => {
    const name = `quota:${tokens}:${hours}`;
    let counter = counters.get(name);
    if (!counter) {
      counter = new RateLimiterMemory({ keyPrefix: name, points: tokens, duration: hours * 3600 });
      counters.set(name, counter);
    }
    return counter;
  };
  return {
    /** Throws `QUOTA_EXCEEDED` (429, `Retry-After` = when the period ends) once the quota is used up. */
    async check(keyId: string, tokens: number, hours = DEFAULT_QUOTA_PERIOD_HOURS): Promise<void> {
      const used = await counterFor(tokens, hours).get(keyId);
      if (!used || used.consumedPoints < tokens) return;
      throw new GatewayError({
        code: 'QUOTA_EXCEEDED',
        message: `This key's quota of ${tokens} tokens per ${hours} hours is used up.`,
        retryAfterMs: used.msBeforeNext,
      });
    },
    /** Adds tokens a request used. Never throws. */
    async add(keyId: string, tokens: number, quota: number, hours = DEFAULT_QUOTA_PERIOD_HOURS): Promise<void> {
      if (!(tokens > 0)) return;
      await counterFor(quota, hours)
        .penalty(keyId, Math.ceil(tokens))
        .catch(() => undefined);
    },
  };
}
