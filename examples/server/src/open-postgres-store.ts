import type { AccountStore } from '@signalbox/accounts';
import type { GatewayLogger } from '@signalbox/express';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import pg from 'pg';
import { describeDriverError, redactError, redactURL } from './redact-url';
import { reportStoreOutages } from './report-store-outages';
import { StartUpError } from './start-up-error';

/** How long a request waits for a database connection before it is refused with 503. */
const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
/** The longest a statement may wait for the database's answer (the ledger's summaries take well under a second). */
const DEFAULT_QUERY_TIMEOUT_MS = 15_000;
/**
 * The largest slice of one balance an instance leases for its holds: 5 units of money. The store
 * caps each slice at what is available ÷ (2 × instances), so a small balance is never leased away.
 */
export const DEFAULT_BALANCE_LEASE_MICROS = 5_000_000;

export type PostgresStorageOptions = {
  url: string;
  serverSecret: string;
  usageRetentionDays: number;
  auditRetentionDays?: number;
  alertDeliveryRetentionDays?: number;
  holdSweepIntervalMs?: number;
  holdOwnerTimeoutMs?: number;
  /** How long a request waits for a connection (to open, or free in the pool). Default 2 000 ms. */
  connectTimeoutMs?: number;
  /** How long a statement waits for the database's answer. Default 15 000 ms. */
  queryTimeoutMs?: number;
  /** The largest slice of a balance leased for holds (a lease lives `holdOwnerTimeoutMs` unrenewed); 0 makes every hold a row of its own. Default `DEFAULT_BALANCE_LEASE_MICROS`. */
  balanceLeaseMicros?: number;
  /** How long a lease serves no hold before it is given back at the next sweep. Default the store's, 10 000 ms. */
  balanceLeaseIdleMs?: number;
  /** The setting that chose the database, named in a start-up error. Default `SIGNALBOX_DATABASE_URL`. */
  source?: string;
  logger?: GatewayLogger;
};

/**
 * The PostgreSQL account store, on a pool of its own whose connections give up after
 * `connectTimeoutMs` and statements after `queryTimeoutMs` (so a database that went away or stopped
 * answering gives 503 `STORE_UNAVAILABLE` in bounded time instead of holding requests), wrapped so
 * that outages are 503s. A database that cannot be reached at start is a `StartUpError` naming the
 * setting that chose it, never showing the URL.
 */
export async function openPostgresStore(options: PostgresStorageOptions): Promise<AccountStore> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // A database host that stops answering without closing the connection (a network partition)
    // fails the statement after this long instead of holding the request until TCP gives up.
    query_timeout: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
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
      ...(options.auditRetentionDays !== undefined && { auditRetentionDays: options.auditRetentionDays }),
      ...(options.alertDeliveryRetentionDays !== undefined && { alertDeliveryRetentionDays: options.alertDeliveryRetentionDays }),
      ...balanceLeases(options.balanceLeaseMicros ?? DEFAULT_BALANCE_LEASE_MICROS, options.balanceLeaseIdleMs),
      ...(options.holdSweepIntervalMs !== undefined && { holdSweepIntervalMs: options.holdSweepIntervalMs }),
      ...(options.holdOwnerTimeoutMs !== undefined && { ownerTimeoutMs: options.holdOwnerTimeoutMs }),
      onSweepError: error => options.logger?.warn({ err: redactError(error, options.url) }, 'hold sweep failed; the next one runs as usual'),
      onOwnerLost: error => options.logger?.error({ err: error }, 'balance holds of this instance were released by another instance'),
    });
  } catch (error) {
    await pool.end().catch(() => {});
    throw new StartUpError(
      `${options.source ?? 'SIGNALBOX_DATABASE_URL'}: cannot open the PostgreSQL database (${redactURL(describeDriverError(error), options.url)}); check that it is running and that the URL's host, port, user, password and database are right`,
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

/** The store's `balanceLeases` option for a slice of `sliceMicros` (none for 0), given back after `idleMs` without holds. */
function balanceLeases(sliceMicros: number, idleMs: number | undefined) {
  return sliceMicros > 0 ? { balanceLeases: { sliceMicros, ...(idleMs !== undefined && { idleMs }) } } : {};
}
