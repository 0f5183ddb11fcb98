import type { KeyLimits } from '@signalbox/accounts';
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
  // The counts are in memory and synchronous: one promise per call for the `Limiter` contract, none per step.
  const admitNow = (keyId: string, limits: KeyLimits, estimatedTokens: number): void => {
    if (limits.quotaTokens !== undefined) quota.check(keyId, limits.quotaTokens, limits.quotaPeriodHours);
    windows.admit(keyId, limits, estimatedTokens);
    if (limits.quotaTokens !== undefined) quota.add(keyId, estimatedTokens, limits.quotaTokens, limits.quotaPeriodHours);
  };
  return {
    async admit(keyId, limits, estimatedTokens) {
      admitNow(keyId, limits, estimatedTokens);
    },
    async charge(keyId, limits, tokens) {
      windows.charge(keyId, limits, tokens);
      if (limits.quotaTokens !== undefined) quota.add(keyId, tokens, limits.quotaTokens, limits.quotaPeriodHours);
    },
    acquire: (keyId, limits, signal) => gate.acquire(keyId, limits, signal),
    admitAndAcquire(keyId, limits, estimatedTokens, signal) {
      try {
        admitNow(keyId, limits, estimatedTokens);
      } catch (error) {
        return Promise.reject(error);
      }
      return gate.acquire(keyId, limits, signal);
    },
  };
}
