import type { Limiter } from '@switchyard/engine';
import type { GatewayLogger } from '@switchyard/express';
import { createRedisLimiter } from '@switchyard/limiter-redis';
import { Redis } from 'ioredis';
import { describeDriverError, redactError, redactURL } from './redact-url';
import { StartUpError } from './start-up-error';

/** How long a limiter command waits for Redis before the request is refused with 503. */
const COMMAND_TIMEOUT_MS = 2_000;

export type SharedLimiter = {
  limiter: Limiter;
  /** One PING through the limiter's client, for `/readyz`. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/**
 * The Redis limiter on a client of its own that fails a command after 2 s or one reconnection
 * attempt (so an outage is a quick 503 `LIMITER_UNAVAILABLE`) and reconnects by itself. A Redis that
 * cannot be reached at start is a `StartUpError` naming `SWITCHYARD_REDIS_URL`, never showing it.
 */
export async function openRedisLimiter(options: { url: string; leaseMs?: number; logger?: GatewayLogger }): Promise<SharedLimiter> {
  const client = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: COMMAND_TIMEOUT_MS, connectTimeout: COMMAND_TIMEOUT_MS });
  let lastWarning = 0;
  let lastError: unknown;
  // ioredis reports every failed reconnection attempt; one line per 10 s is enough for the log.
  client.on('error', (error: Error) => {
    lastError = error;
    if (Date.now() - lastWarning < 10_000) return;
    lastWarning = Date.now();
    options.logger?.warn({ err: redactError(error, options.url) }, 'Redis unreachable; reconnecting');
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new StartUpError(
      `SWITCHYARD_REDIS_URL: cannot reach Redis (${redactURL(describeDriverError(lastError ?? error), options.url)}); check that it is running and that the URL's host, port and password are right`,
      { cause: error },
    );
  }
  const limiter = createRedisLimiter({
    redis: client,
    ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
    onError: error => options.logger?.warn({ err: redactError(error, options.url) }, 'limiter update failed'),
  });
  return {
    limiter,
    async ping() {
      await client.ping();
    },
    async close() {
      await limiter.close();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
