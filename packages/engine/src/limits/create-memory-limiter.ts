import { createConcurrencyGate } from './create-concurrency-gate';
import { createQuotaCounter } from './create-quota-counter';
import { createRateWindows } from './create-rate-windows';
import type { Limiter } from './limiter';

export type MemoryLimiterOptions = {
  /**
   * The one clock of every limit (default `Date.now`): when rate windows and quota periods open and
   * close, concurrency hold times, and every `Retry-After`. Tests move it instead of waiting.
   * (The queue wait, `queueTimeoutMs`, is a timer.)
   */
  now?: () => number;
};

/**
 * The `Limiter` of one gateway process: a long-period token quota, fixed request and token windows,
 * and a per-key concurrency gate with a bounded FIFO queue, all in memory and all on one clock.
 * State lives in this process only; several instances behind a load balancer need a shared
 * (Redis) `Limiter`.
 */
export function createMemoryLimiter(options: MemoryLimiterOptions = {}): Limiter {
  const clock = options.now === undefined ? {} : { now: options.now };
  const windows = createRateWindows(clock);
  const quota = createQuotaCounter(clock);
  const gate = createConcurrencyGate(clock);
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
