import type { AccountStore } from '@switchyard/accounts';
import type { Limiter } from '@switchyard/engine';
import type { GatewayLogger } from '@switchyard/express';
import { createRedisLimiter } from '@switchyard/limiter-redis';
import { createPostgresAccountStore } from '@switchyard/store-postgres';
import { Redis } from 'ioredis';
import pg from 'pg';
import { reportStoreOutages } from './report-store-outages';
import { StartUpError } from './start-up-error';

/** How long a request waits for a database connection or a Redis reply before it is refused with 503. */
const CONNECT_TIMEOUT_MS = 2_000;
/** The longest a statement may wait for the database's answer (the ledger's summaries take well under a second). */
const QUERY_TIMEOUT_MS = 15_000;

export type PostgresStorageOptions = {
  url: string;
  serverSecret: string;
  usageRetentionDays: number;
  holdSweepIntervalMs?: number;
  holdOwnerTimeoutMs?: number;
  logger?: GatewayLogger;
};

/**
 * The PostgreSQL account store, on a pool of its own whose connections give up after 2 s and
 * statements after 15 s (so a database that went away answers 503 `STORE_UNAVAILABLE` instead of
 * holding requests),
 * wrapped so that outages are 503s. A database that cannot be reached at start is a `StartUpError`
 * naming `SWITCHYARD_DATABASE_URL`, never showing it.
 */
export async function openPostgresStore(options: PostgresStorageOptions): Promise<AccountStore> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A database host that stops answering without closing the connection (a network partition)
    // fails the statement after this long instead of holding the request until TCP gives up.
    query_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle connection that breaks is dropped and replaced by the pool; unhandled, the event would end the process.
  pool.on('error', error => options.logger?.warn({ err: redactError(error, options.url) }, 'a PostgreSQL connection broke; the pool opens a new one'));
  // A connection checked out of the pool (a transaction between two statements) that breaks emits
  // 'error' on its client, which the pool listens to only while the client is idle: without this
  // listener a database restart during a transaction would end the process. The transaction's
  // pending or next statement rejects on its own, and the client is discarded on release.
  pool.on('connect', client => client.on('error', () => {}));
  let store: AccountStore;
  try {
    store = await createPostgresAccountStore({
      pool,
      serverSecret: options.serverSecret,
      usageRetentionDays: options.usageRetentionDays,
      ...(options.holdSweepIntervalMs !== undefined && { holdSweepIntervalMs: options.holdSweepIntervalMs }),
      ...(options.holdOwnerTimeoutMs !== undefined && { ownerTimeoutMs: options.holdOwnerTimeoutMs }),
      onSweepError: error => options.logger?.warn({ err: redactError(error, options.url) }, 'hold sweep failed; the next one runs as usual'),
    });
  } catch (error) {
    await pool.end().catch(() => {});
    throw new StartUpError(
      `SWITCHYARD_DATABASE_URL: cannot open the PostgreSQL database (${redact(describe(error), options.url)}); check that it is running and that the URL's host, port, user, password and database are right`,
      { cause: error },
    );
  }
  const guarded = reportStoreOutages(store);
  return {
    // The spread copies the wrapped methods; close also ends the pool the store was given.
    ...guarded,
    async close() {
      try {
        await store.close();
      } finally {
        await pool.end().catch(() => {});
      }
    },
  };
}

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
  const client = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: CONNECT_TIMEOUT_MS, connectTimeout: CONNECT_TIMEOUT_MS });
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
      `SWITCHYARD_REDIS_URL: cannot reach Redis (${redact(describe(lastError ?? error), options.url)}); check that it is running and that the URL's host, port and password are right`,
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

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const text = cause instanceof Error ? cause.message || (cause as { code?: string }).code || cause.name : String(cause);
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** The text without the URL or its password, in case a driver quoted either. */
function redact(text: string, url: string): string {
  let result = text.split(url).join('<the URL>');
  try {
    const password = decodeURIComponent(new URL(url).password);
    if (password) result = result.split(password).join('<password>');
  } catch {
    // Not a URL the WHATWG parser reads: nothing more to take out.
  }
  return result;
}

function redactError(error: unknown, url: string): { message: string; code?: string } {
  const code = (error as { code?: unknown })?.code;
  return { message: redact(describe(error), url), ...(typeof code === 'string' && { code }) };
}
