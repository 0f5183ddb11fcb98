import { GatewayError } from '@signalbox/core';

/** What a request the gateway's shutdown refuses or ends is told: retryable, in full, elsewhere or later. */
export function shuttingDown(): GatewayError {
  return new GatewayError({ code: 'SHUTTING_DOWN', message: 'The gateway is shutting down; retry the request.' });
}

/**
 * What a request still running at its route's overall deadline is told. It counts as an upstream
 * timeout: the upstream did not finish in the time the route allows.
 */
export function deadlinePassed(deadlineMs: number): GatewayError {
  return new GatewayError({
    code: 'UPSTREAM_TIMEOUT',
    message: `The request did not finish within its deadline of ${deadlineMs} ms.`,
  });
}

/**
 * The error a signal was aborted with when the gateway itself ended the request (its shutdown, the
 * request's deadline): a `GatewayError` reason, which the client is to be told. A client that left
 * aborts with any other reason.
 */
export function interruptionOf(signal: AbortSignal): GatewayError | undefined {
  return signal.aborted && GatewayError.isInstance(signal.reason) ? signal.reason : undefined;
}
