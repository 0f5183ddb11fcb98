import type { Clock } from '../clock/clock';
import { createConcurrencyGate } from './create-concurrency-gate';
import { createQuotaCounter } from './create-quota-counter';
import { createRateWindows } from './create-rate-windows';
import type { Limiter } from './limiter';

/**
 * The one clock of every limit, its time and its timers (default the system's; the engine passes
 * its own): `now` says when rate windows and quota periods open and close, how long slots are
 * held, and every `Retry-After`; `schedule` ends a queue wait (`queueTimeoutMs`). Tests move it
 * instead of waiting.
 */
export type MemoryLimiterOptions = Partial<Pick<Clock, 'now' | 'schedule'>>;

/**
 * The `Limiter` of one gateway process: a long-period token quota, fixed request and token windows,
 * and a per-key concurrency gate with a bounded FIFO queue, all in memory and all on one clock.
 * State lives in this process only; several instances behind a load balancer need a shared
 * (Redis) `Limiter`.
 */
export function createMemoryLimiter(options: MemoryLimiterOptions = {}): Limiter {
  const windows = createRateWindows(options);
  const quota = createQuotaCounter(options);
  const gate = createConcurrencyGate(options);
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
