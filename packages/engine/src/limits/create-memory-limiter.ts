import { createConcurrencyGate } from './create-concurrency-gate';
import { createQuotaCounter } from './create-quota-counter';
import { createRateWindows } from './create-rate-windows';
import type { Limiter } from './limiter';

export type MemoryLimiterOptions = {
  /**
   * Clock for concurrency hold times and `Retry-After` estimates (default `Date.now`). The rate
   * windows keep `rate-limiter-flexible`'s own clock (`Date.now` and timers).
   */
  now?: () => number;
};

/**
 * The `Limiter` of one gateway process: a long-period token quota, request and token windows on
 * `rate-limiter-flexible`'s memory store, and a hand-written per-key concurrency gate with a bounded
 * FIFO queue. State lives in this process only; several instances behind a load balancer need a
 * shared (Redis) limiter.
 */
export function createMemoryLimiter(options: MemoryLimiterOptions = {}): Limiter {
  const windows = createRateWindows();
  const quota = createQuotaCounter();
  const gate = createConcurrencyGate(options.now === undefined ? {} : { now: options.now });
  return {
    async admit(keyId, limits, estimatedTokens) {
      if (limits.quotaTokens !== undefined) await quota.check(keyId, limits.quotaTokens, limits.quotaPeriodHours);
      await windows.admit(keyId, limits, estimatedTokens);
      if (limits.quotaTokens !== undefined) await quota.add(keyId, estimatedTokens, limits.quotaTokens, limits.quotaPeriodHours);
    },
    async charge(keyId, limits, tokens) {
      await windows.charge(keyId, limits, tokens);
      if (limits.quotaTokens !== undefined) await quota.add(keyId, tokens, limits.quotaTokens, limits.quotaPeriodHours);
    },
    acquire: (keyId, limits, signal) => gate.acquire(keyId, limits, signal),
  };
}
