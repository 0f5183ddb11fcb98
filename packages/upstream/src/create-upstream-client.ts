import { BodyChunks } from './body-chunks';
import { createConnectionGate } from './create-connection-gate';
import { createConnectionPool } from './create-connection-pool';
import { loadUndiciClient } from './load-undici-client';
import { mapTransportError } from './map-transport-error';
import { mayHaveLeftBodyUnread } from './may-have-left-body-unread';
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
  /**
   * Requests in flight to this upstream at once, each on its own HTTP/1.1 keep-alive connection.
   * Default 1 024: a cap that guards file descriptors, not a pool small enough to queue behind.
   */
  connections?: number;
  /**
   * Longest wait for a connection once all `connections` are busy, then a retryable 503
   * `UPSTREAM_OVERLOADED` with `Retry-After`. 0 refuses at once. Default 5 000 ms.
   */
  queueTimeoutMs?: number;
};

const undici = loadUndiciClient();

/** High enough for a process's concurrency: a stalled upstream is felt at this many streams, not 128. */
export const DEFAULT_UPSTREAM_CONNECTIONS = 1_024;
/** The bound on a silent wait once an upstream's connections are all busy. */
export const DEFAULT_UPSTREAM_QUEUE_TIMEOUT_MS = 5_000;

/** Sends requests to one upstream over a keep-alive connection pool. */
export type UpstreamClient = {
  readonly baseURL: string;
  send(request: UpstreamRequest, signal?: AbortSignal): Promise<UpstreamResponse>;
  close(): Promise<void>;
  /** How busy its connections are now, for metrics; a client that cannot tell leaves it out. */
  stats?(): UpstreamClientStats;
};

/** A snapshot of one upstream client's connections. */
export type UpstreamClientStats = {
  /** Open sockets to the upstream, idle ones included. */
  connected: number;
  /** Requests holding a connection now, from dispatch until their response body closes. */
  inUse: number;
  /** Requests waiting for a connection because all of them are in use. */
  queued: number;
};

/**
 * An upstream client on undici's `Client.request` (no WHATWG fetch or streams on the hot path).
 * Transport failures come back as `GatewayError`s, a caller's abort as `ClientAbortedError`.
 *
 * A gate in front of the connections bounds them: a request holds a slot and a connection of its
 * own from dispatch until its response body closes (read to the end, destroyed or failed), so no
 * request ever queues behind another on a connection, and each request's connection is known. One
 * that may still carry the unread rest of its body (`mayHaveLeftBodyUnread`) is closed then, never
 * lent to the next request; so is one whose request failed. HTTP/1.1 only: undici 7 sends a POST on
 * an HTTP/2 session only when no other stream is open on it and queues it there otherwise, which
 * would bring back the head-of-line wait separate connections avoid.
 */
export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const { Client, request: clientRequest, buildConnector } = undici;
  const url = new URL(options.baseURL);
  const prefix = url.pathname.replace(/\/+$/, '');
  const gate = createConnectionGate({
    limit: options.connections ?? DEFAULT_UPSTREAM_CONNECTIONS,
    queueTimeoutMs: options.queueTimeoutMs ?? DEFAULT_UPSTREAM_QUEUE_TIMEOUT_MS,
  });
  const pool = createConnectionPool(Client, url.origin, {
    // One connector for every connection, as undici's Pool shares one: a TLS session is resumed on the next.
    connect: buildConnector({ timeout: options.connectTimeoutMs ?? 10_000 }),
    keepAliveTimeout: 30_000,
  });
  const baseHeaders: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  for (const [name, value] of Object.entries(options.headers ?? {})) baseHeaders[name.toLowerCase()] = value;
  return {
    baseURL: options.baseURL,
    async send(request, signal) {
      let done: ((reusable: boolean) => void) | undefined;
      try {
        if (!gate.tryAcquire()) await gate.waitForSlot(signal);
        const client = pool.lend();
        done = once((reusable: boolean) => {
          if (reusable) pool.giveBack(client);
          else pool.retire(client);
          gate.release();
        });
        const response = await clientRequest.call(client, {
          method: 'POST',
          path: prefix + request.path,
          headers: request.headers ? { ...baseHeaders, ...request.headers } : baseHeaders,
          body: request.body,
          signal: signal ?? null,
          headersTimeout: options.timeoutMs ?? 60_000,
          bodyTimeout: options.idleTimeoutMs ?? 120_000,
        });
        const body = response.body;
        const reusable = !mayHaveLeftBodyUnread(response.statusCode, request.body);
        const release = () => done?.(reusable);
        if (body.closed) release();
        else body.once('close', release);
        return {
          status: response.statusCode,
          headers: response.headers,
          body: new BodyChunks(body),
          text: () => body.text().catch(error => Promise.reject(mapTransportError(error, signal))),
        };
      } catch (error) {
        done?.(false);
        throw mapTransportError(error, signal);
      }
    },
    close: () => pool.close(),
    // The gate's counts: requests in flight and in line; the connections never queue themselves.
    stats: () => ({ connected: pool.connected(), inUse: gate.inFlight, queued: gate.waiting }),
  };
}

/** `action` on the first call only: a slot and its connection are given back once whichever way the request ends. */
function once<Argument>(action: (argument: Argument) => void): (argument: Argument) => void {
  let called = false;
  return argument => {
    if (called) return;
    called = true;
    action(argument);
  };
}
