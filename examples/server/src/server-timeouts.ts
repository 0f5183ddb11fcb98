import type { ServerOptions } from 'node:http';

/** Longest a client may take to send a request line and headers, in ms (Node's default is 60 000). */
export const HEADERS_TIMEOUT_MS = 20_000;

/**
 * The `http.Server` timeouts for a gateway whose body timeout is `bodyTimeoutMs`. Node's own limits
 * bound what the gateway cannot see: a client that never finishes its headers (`headersTimeout`),
 * and, behind the gateway's body timeout, any request still incomplete after the headers' and the
 * body's time plus a margin (`requestTimeout`), so the gateway's own 408 comes first. Both are
 * checked every second instead of Node's default 30 s, so a request is cut near its deadline.
 * Either is answered 408 `REQUEST_TIMEOUT` by the gateway's `clientError` listener.
 * @see https://nodejs.org/api/http.html#serverrequesttimeout
 */
export function serverTimeouts(bodyTimeoutMs: number): ServerOptions {
  return {
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: HEADERS_TIMEOUT_MS + bodyTimeoutMs + 5_000,
    connectionsCheckingInterval: 1_000,
  };
}
