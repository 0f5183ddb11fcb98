import { createConcurrencyGate } from './create-concurrency-gate';
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
 * The `Limiter` of one gateway process: request and token windows on `rate-limiter-flexible`'s
 * memory store, and a hand-written per-key concurrency gate with a bounded FIFO queue. State lives in
 * this process only; several instances behind a load balancer need a shared (Redis) limiter.
 */
export function createMemoryLimiter(options: MemoryLimiterOptions = {}): Limiter {
  const windows = createRateWindows();
  const gate = createConcurrencyGate(options.now === undefined ? {} : { now: options.now });
  return {
    admit: (keyId, limits, estimatedTokens) => windows.admit(keyId, limits, estimatedTokens),
    charge: (keyId, limits, tokens) => windows.charge(keyId, limits, tokens),
    acquire: (keyId, limits, signal) => gate.acquire(keyId, limits, signal),
  };
}
