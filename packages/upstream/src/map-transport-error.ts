import { ClientAbortedError, GatewayError } from '@signalbox/core';

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CONNECT',
]);
const TIMEOUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Classifies a failure of the HTTP exchange itself. Connection failures are safe to retry (nothing
 * reached the model); a reset or timeout after the request was sent is ambiguous.
 */
/** A caller's own abort (the client went away) becomes `ClientAbortedError`: not an upstream fault. */
export function mapTransportError(error: unknown, signal?: AbortSignal): Error {
  if (signal?.aborted) return new ClientAbortedError(error);
  if (GatewayError.isInstance(error)) return error;
  const code = errorCode(error);
  if (code !== undefined && UNREACHABLE.has(code)) {
    return new GatewayError({ code: 'UPSTREAM_UNREACHABLE', message: `The upstream could not be reached (${code}).`, cause: error });
  }
  if (code !== undefined && TIMEOUT.has(code)) {
    return new GatewayError({ code: 'UPSTREAM_TIMEOUT', message: 'The upstream did not answer in time.', cause: error });
  }
  return new GatewayError({
    code: 'UPSTREAM_FAILED',
    message: `The connection to the upstream failed${code ? ` (${code})` : ''}.`,
    cause: error,
  });
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return errorCode((error as { cause?: unknown }).cause);
}
