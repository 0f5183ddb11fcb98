import type { KeyLimits } from '@signalbox/accounts';

/** A held concurrency slot; call once when the request is over (idempotent). */
export type Release = () => void;

/**
 * Per-key limits, behind an interface a shared store (Redis) can implement for several instances.
 * Refusals are `GatewayError`s with `retryAfterMs` computed from the limiter's real state:
 * `RATE_LIMITED` (requests or tokens per window), `CONCURRENCY_LIMITED`, `QUEUE_FULL`.
 */
export interface Limiter {
  /** Counts one request and `estimatedTokens` against the key's windows; throws `RATE_LIMITED`. */
  admit(keyId: string, limits: KeyLimits, estimatedTokens: number): Promise<void>;
  /** Counts tokens learned after the fact (output, and input beyond the estimate). Never throws. */
  charge(keyId: string, limits: KeyLimits, tokens: number): Promise<void>;
  /**
   * Waits for a concurrency slot: at once when one is free, else in a bounded FIFO queue for at
   * most `queueTimeoutMs`. Throws `CONCURRENCY_LIMITED` (no queue, or the wait timed out) or
   * `QUEUE_FULL`; rejects with the signal's reason when the client leaves while queued.
   */
  acquire(keyId: string, limits: KeyLimits, signal: AbortSignal): Promise<Release>;
  /**
   * `admit`, then `acquire`, as one step with the same refusals in the same order (a request refused
   * a slot stays counted): a limiter whose state is shared makes it one round trip. Absent: the
   * engine calls the two.
   */
  admitAndAcquire?(keyId: string, limits: KeyLimits, estimatedTokens: number, signal: AbortSignal): Promise<Release>;
}
