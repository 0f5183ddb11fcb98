import type { GatewayError } from '@signalbox/core';

/** How many attempts a request may make in total, and the backoff between them. */
export type RetryPolicy = {
  /** Total attempts, counting the first and any failover (the spec caps this at 3). */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** Also retry failures that may have reached the model (timeouts, 500/502/504): duplicates possible. */
  replayAmbiguous: boolean;
};

export const defaultRetryPolicy: RetryPolicy = {
  maxAttempts: 3,
  initialDelayMs: 250,
  maxDelayMs: 4_000,
  replayAmbiguous: false,
};

/** A server hint longer than this is not worth holding a client for; the error goes back instead. */
const MAX_HONOURED_RETRY_AFTER_MS = 10_000;

/**
 * The delay before attempt `attempt + 1`, or `undefined` for "do not retry". Pure: the caller owns
 * sleeping and aborting. Only failures that cannot have produced a generation are retried (429,
 * overload, connection refused) unless the route opts in to replaying ambiguous ones.
 */
export function getRetryDelayMs(options: {
  error: GatewayError;
  attempt: number;
  policy: RetryPolicy;
  random?: () => number;
}): number | undefined {
  const { error, attempt, policy, random = Math.random } = options;
  if (attempt >= policy.maxAttempts) return undefined;
  const safe = error.retryable;
  const ambiguous = error.code === 'UPSTREAM_TIMEOUT' || error.code === 'UPSTREAM_FAILED';
  if (!safe && !(ambiguous && policy.replayAmbiguous)) return undefined;
  const hint = error.retryAfterMs;
  if (hint !== undefined) return hint <= MAX_HONOURED_RETRY_AFTER_MS ? hint : undefined;
  const exponential = Math.min(policy.initialDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return exponential * (1 - random() * 0.25);
}
