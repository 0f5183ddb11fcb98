import type { AffinityStore, CredentialHealthStore, Limiter } from '@signalbox/engine';
import type { GatewayLogger } from '@signalbox/express';
import { createRedisAffinityStore, createRedisHealthStore, createRedisLimiter } from '@signalbox/limiter-redis';
import { Redis } from 'ioredis';
import { describeDriverError, redactError, redactURL } from './redact-url';
import { StartUpError } from './start-up-error';

/** How long a limiter command waits for Redis before the request is refused with 503. */
const DEFAULT_COMMAND_TIMEOUT_MS = 2_000;

export type RedisLimiterSettings = {
  url: string;
  leaseMs?: number;
  /** How long a command (and the first connection) waits for Redis. Default 2 000 ms. */
  commandTimeoutMs?: number;
  /** The setting that chose Redis, named in a start-up error. Default `SIGNALBOX_REDIS_URL`. */
  source?: string;
  logger?: GatewayLogger;
};

export type SharedLimiter = {
  limiter: Limiter;
  /** Upstream health shared by every instance on the same Redis (a credential cooling down, taken out, a circuit open). */
  healthStore: CredentialHealthStore;
  /** The credential each conversation keeps, shared by every instance on the same Redis (session affinity). */
  affinityStore: AffinityStore;
  /** One PING through the limiter's client, for `/readyz`. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/**
 * The Redis limiter, and the upstream health and session affinity stores beside it, on one client of their own that fails a command after `commandTimeoutMs` or one
 * reconnection attempt (so an outage, or a Redis that stops answering, is a quick 503
 * `LIMITER_UNAVAILABLE`) and reconnects by itself. A Redis that cannot be reached at start is a
 * `StartUpError` naming the setting that chose it, never showing the URL.
 */
export async function openRedisLimiter(options: RedisLimiterSettings): Promise<SharedLimiter> {
  const timeout = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const client = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: timeout, connectTimeout: timeout });
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
      `${options.source ?? 'SIGNALBOX_REDIS_URL'}: cannot reach Redis (${redactURL(describeDriverError(lastError ?? error), options.url)}); check that it is running and that the URL's host, port and password are right`,
      { cause: error },
    );
  }
  const limiter = createRedisLimiter({
    redis: client,
    ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
    onError: error => options.logger?.warn({ err: redactError(error, options.url) }, 'limiter update failed'),
  });
  const healthStore = createRedisHealthStore({
    redis: client,
    onError: error => options.logger?.warn({ err: redactError(error, options.url) }, 'upstream health not shared: Redis unreachable'),
  });
  const affinityStore = createRedisAffinityStore({
    redis: client,
    onError: error => options.logger?.warn({ err: redactError(error, options.url) }, 'session affinity pin not read or kept: Redis unreachable or slow'),
  });
  return {
    limiter,
    healthStore,
    affinityStore,
    async ping() {
      await client.ping();
    },
    async close() {
      await limiter.close();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
