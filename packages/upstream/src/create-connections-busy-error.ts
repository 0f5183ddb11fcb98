import { GatewayError } from '@signalbox/core';

/** What a refused caller is told to wait: the shortest `Retry-After` a header can say (whole seconds). */
const RETRY_AFTER_MS = 1_000;

/**
 * The refusal of a request that found every connection to its upstream busy for the whole queue
 * timeout. It is an overload like the upstream's own 503/529: retryable and a reason to fail over,
 * since nothing was sent; `Retry-After` tells the caller when a slot may be free.
 */
export function createConnectionsBusyError(queueTimeoutMs: number): GatewayError {
  return new GatewayError({
    code: 'UPSTREAM_OVERLOADED',
    message: `Every connection to the upstream stayed busy for ${queueTimeoutMs} ms; try again shortly.`,
    retryAfterMs: RETRY_AFTER_MS,
  });
}
