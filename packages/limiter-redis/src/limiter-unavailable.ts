import { GatewayError } from '@signalbox/core';

/** A limiter call waits this long for Redis before a client of its own reports it unreachable. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

/**
 * 503 `LIMITER_UNAVAILABLE` for a Redis failure (no connection, a timeout, an error reply): the
 * request is refused before it reaches an upstream, never admitted without its limits. The Redis
 * error stays in `cause` for the logs; the client's message names no address.
 */
export function limiterUnavailable(cause: unknown): GatewayError {
  if (GatewayError.isInstance(cause)) return cause;
  return new GatewayError({
    code: 'LIMITER_UNAVAILABLE',
    message: 'The gateway cannot reach its shared limits store, so this request was not admitted. Retry shortly.',
    retryAfterMs: 1_000,
    cause,
  });
}
