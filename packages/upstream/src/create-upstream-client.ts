import { Pool } from 'undici';
import { mapTransportError } from './map-transport-error';
import type { UpstreamRequest, UpstreamResponse } from './upstream-response';

export type UpstreamClientOptions = {
  /** Base URL the vendor's SDK would take (`https://api.openai.com/v1`, `https://api.anthropic.com`). */
  baseURL: string;
  /** Headers sent on every call (credentials, pinned versions, vendor extras). */
  headers?: Record<string, string>;
  /** Time allowed until the upstream's response headers arrive. Default 60 000 ms. */
  timeoutMs?: number;
  /** Longest silence allowed between body chunks (streams included). Default 120 000 ms. */
  idleTimeoutMs?: number;
  /** Time allowed to open a connection. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Keep-alive connections kept open to this upstream. Default 128. */
  connections?: number;
};

/** Sends requests to one upstream over a keep-alive connection pool. */
export type UpstreamClient = {
  readonly baseURL: string;
  send(request: UpstreamRequest, signal?: AbortSignal): Promise<UpstreamResponse>;
  close(): Promise<void>;
};

/**
 * An upstream client on undici's `Pool.request` (no WHATWG fetch or streams on the hot path).
 * Transport failures come back as `GatewayError`s, a caller's abort as `ClientAbortedError`.
 */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const url = new URL(options.baseURL);
  const prefix = url.pathname.replace(/\/+$/, '');
  const pool = new Pool(url.origin, {
    connections: options.connections ?? 128,
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
    keepAliveTimeout: 30_000,
  });
  const baseHeaders: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  for (const [name, value] of Object.entries(options.headers ?? {})) baseHeaders[name.toLowerCase()] = value;
  return {
    baseURL: options.baseURL,
    async send(request, signal) {
      try {
        const response = await pool.request({
          method: 'POST',
          path: prefix + request.path,
          headers: request.headers ? { ...baseHeaders, ...request.headers } : baseHeaders,
          body: request.body,
          signal: signal ?? null,
          headersTimeout: options.timeoutMs ?? 60_000,
          bodyTimeout: options.idleTimeoutMs ?? 120_000,
        });
        const body = response.body;
        return {
          status: response.statusCode,
          headers: response.headers,
          body,
          text: () => body.text().catch(error => Promise.reject(mapTransportError(error, signal))),
        };
      } catch (error) {
        throw mapTransportError(error, signal);
      }
    },
    close: () => pool.close(),
  };
}
