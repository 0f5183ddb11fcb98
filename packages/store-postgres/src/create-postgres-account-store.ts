import pg from 'pg';
import {
  DEFAULT_ALERT_DELIVERY_RETENTION_DAYS,
  DEFAULT_HOLD_SWEEP_INTERVAL_MS,
  startStoreSweep,
  usageRetentionMs,
  type AccountStore,
} from '@signalbox/accounts';
import { createAccountMethods } from './create-account-methods';
import { createAlertDeliveryMethods } from './create-alert-delivery-methods';
import { createApiKeyMethods } from './create-api-key-methods';
import { createBalanceLeases, type BalanceLeaseOptions } from './create-balance-leases';
import { createBudgetMethods } from './create-budget-methods';
import { listenForBudgetChanges } from './listen-for-budget-changes';
import { createConfigVersionMethods } from './create-config-version-methods';
import { createConsoleTokenMethods } from './create-console-token-methods';
import { ACCOUNTS_CHANNEL, API_KEYS_CHANNEL, createAnnouncedCache, type AnnouncedCache } from './create-announced-cache';
import { createReservationMethods } from './create-reservation-methods';
import { createResponseMethods } from './create-response-methods';
import { createTransactionRunner } from './create-transaction-runner';
import { createAuditMethods } from './create-audit-methods';
import { createUsageMethods } from './create-usage-methods';
import { registerHoldOwner, unregisterHoldOwner } from './hold-owners';
import { subscribeConfigVersions } from './subscribe-config-versions';
import { createNotificationListener, type NotificationListener } from './listen-notifications';
import { migrateSchema } from './migrate-schema';
import { releaseAbandonedHolds } from './release-abandoned-holds';
import { createSqlSession } from './sql-session';
import type { StoreContext } from './store-context';
import { CLOSED_MESSAGE, createSweepTracker, gateMethods } from './wait-for-sweeps';

/** How long a call of a store on its own pool waits for a connection, unless told otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** How long a statement of a store on its own pool waits for its answer, unless told otherwise. */
export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

/** How old the balance of an account kept for the request path may be (`getAccountForRequest`). */
export const ACCOUNT_BALANCE_HINT_MAX_AGE_MS = 1_000;

/** Where the store lives and how it treats keys, holds and their owners. */
export type PostgresAccountStoreOptions = (
  | {
      /** `postgres://user:password@host:port/database`; the store makes and ends its own pool. */
      connectionString: string;
      /** Connections of the store's own pool. Default 10 (`pg`'s default). */
      maxConnections?: number;
      /** How long a call waits for a connection (busy pool, or a database that does not answer). Default 5 000 ms. */
      connectTimeoutMs?: number;
      /** How long a statement waits for the database's answer before it fails. Default 30 000 ms. */
      queryTimeoutMs?: number;
    }
  | {
      /** A pool the host made and ends itself (`close` leaves it open). */
      pool: pg.Pool;
    }
) & {
  /** HMAC key for API key digests. Keys are only findable with the secret they were created under. */
  serverSecret: string;
  /** The clock holds are made and expire by and heartbeats are written with. Default `Date.now`. */
  now?: () => number;
  /**
   * How often, while open, the store refreshes its owner heartbeat, releases holds that expired or
   * whose owner went silent, deletes expired responses and old ledger rows (0 turns the timer off;
   * the heartbeat is then refreshed only by `releaseExpiredHolds`). Default 60 000 ms.
   */
  holdSweepIntervalMs?: number;
  /**
   * How old another instance's heartbeat may be before its holds are released as a crashed
   * instance's. Default 3 × `holdSweepIntervalMs` (3 × the default interval when the timer is off).
   */
  ownerTimeoutMs?: number;
  /**
   * 0 reads the key and its account on every request. Any other value (the default) keeps a found
   * key's row until a change of any key is announced (`NOTIFY`, from whichever instance or client
   * made it), an account as requests read it until a change of an account's name, subscription,
   * group or ceiling is announced (its balance at most `ACCOUNT_BALANCE_HINT_MAX_AGE_MS` old), and
   * reads on every request while the listening connection is away.
   */
  cacheRefreshMs?: number;
  /**
   * Serve holds from slices of balances this instance leases (one round trip per slice instead of
   * one per request); see the package README, "Balance leases". Off by default: every hold is then
   * a row of its own.
   */
  balanceLeases?: BalanceLeaseOptions;
  /** Ledger rows older than this many days are deleted by the sweep. Default `DEFAULT_USAGE_RETENTION_DAYS` (400). */
  usageRetentionDays?: number;
  /** Audit log entries older than this many days are deleted by the sweep. Default `DEFAULT_USAGE_RETENTION_DAYS` (400). */
  auditRetentionDays?: number;
  /** Alert delivery attempts older than this many days are deleted by the sweep. Default `DEFAULT_ALERT_DELIVERY_RETENTION_DAYS` (30). */
  alertDeliveryRetentionDays?: number;
  /** Told about a sweep that failed (the database unreachable for a while); the next sweep runs as usual. */
  onSweepError?: (error: unknown) => void;
  /**
   * Told when a sweep finds this instance's owner row gone: another instance heard no heartbeat for
   * `ownerTimeoutMs` and released its holds (the process stalled, or lost the database that long).
   * Default: `onSweepError`.
   */
  onOwnerLost?: (error: Error) => void;
};

/**
 * The `AccountStore` for several gateway instances sharing one PostgreSQL database: same semantics
 * as `createMemoryAccountStore` and the SQLite store. Opening it migrates the schema (once, whatever
 * the number of instances starting together), registers this instance as a hold owner, releases
 * abandoned holds and deletes expired responses; a database that cannot be reached fails here.
 * While open, a timer keeps the owner's heartbeat and repeats the cleanups, until `close`.
 */
export async function createPostgresAccountStore(options: PostgresAccountStoreOptions): Promise<AccountStore> {
  if (!options.serverSecret) throw new Error('createPostgresAccountStore needs a non-empty serverSecret.');
  const intervalMs = options.holdSweepIntervalMs ?? DEFAULT_HOLD_SWEEP_INTERVAL_MS;
  const ownerTimeoutMs = options.ownerTimeoutMs ?? 3 * (intervalMs > 0 ? intervalMs : DEFAULT_HOLD_SWEEP_INTERVAL_MS);
  const now = options.now ?? Date.now;
  const retentionMs = usageRetentionMs(options.usageRetentionDays);
  const ownPool = 'connectionString' in options;
  const pool = ownPool
    ? new pg.Pool({
        connectionString: options.connectionString,
        max: options.maxConnections ?? 10,
        // Without these a database that stops answering holds every call until TCP gives up.
        connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        query_timeout: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
        keepAlive: true,
      })
    : options.pool;
  // A connection that breaks while idle is dropped by the pool, which opens a new one for the next
  // query; without a listener its 'error' event would end the process.
  if (ownPool) pool.on('error', error => options.onSweepError?.(error));
  // The heartbeat's and sweep's own connection, with the pool's settings (timeouts included).
  // Its idle connection does not keep a process alive that has nothing else to do.
  const maintenancePool = new pg.Pool({ ...pool.options, max: 1, allowExitOnIdle: true });
  maintenancePool.on('error', error => options.onSweepError?.(error));
  maintenancePool.on('connect', client => client.on('error', () => {}));
  // Config versions are read on a connection of their own too: a new version is applied within a
  // second on every instance even while requests keep the main pool busy.
  const configPool = new pg.Pool({ ...pool.options, max: 1, allowExitOnIdle: true });
  configPool.on('error', error => options.onSweepError?.(error));
  configPool.on('connect', client => client.on('error', () => {}));
  const endPools = async () => {
    await configPool.end();
    await maintenancePool.end();
    if (ownPool) await pool.end();
  };

  let opened: StoreContext;
  try {
    opened = await openStore({ pool, maintenancePool }, options.serverSecret, now, ownerTimeoutMs);
  } catch (error) {
    await endPools();
    throw new Error(`Cannot open the PostgreSQL account store: ${(error as Error).message}`, { cause: error });
  }
  const leases = options.balanceLeases && createBalanceLeases(opened, { ...options.balanceLeases, lifetimeMs: ownerTimeoutMs });
  const context: StoreContext = leases ? { ...opened, leases } : opened;
  const reservations = createReservationMethods(context, {
    ownerTimeoutMs,
    onOwnerLost: error => (options.onOwnerLost ?? options.onSweepError)?.(error),
  });
  const responses = createResponseMethods(context);
  const usage = createUsageMethods(context);
  const audit = createAuditMethods(context);
  const auditRetentionMs = usageRetentionMs(options.auditRetentionDays);
  const alertDeliveries = createAlertDeliveryMethods(context);
  const alertDeliveryRetentionMs = usageRetentionMs(options.alertDeliveryRetentionDays ?? DEFAULT_ALERT_DELIVERY_RETENTION_DAYS);
  const configVersions = createConfigVersionMethods({ ...context, sql: createSqlSession(configPool) });
  const notifications = createNotificationListener({
    connection: pool.options,
    ...(options.onSweepError && { onError: options.onSweepError }),
  });
  const keyCache = createAnnouncedCache({ enabled: options.cacheRefreshMs !== 0 });
  const accountCache = createAnnouncedCache({ enabled: options.cacheRefreshMs !== 0, maxAgeMs: ACCOUNT_BALANCE_HINT_MAX_AGE_MS, now });
  keepWhileAnnounced(notifications, API_KEYS_CHANNEL, keyCache);
  keepWhileAnnounced(notifications, ACCOUNTS_CHANNEL, accountCache);
  if (leases) await listenForBudgetChanges(notifications, leases);
  const sweeps = createSweepTracker();
  const stopSweep = startStoreSweep(
    sweeps.track([
      reservations.releaseExpiredHolds,
      responses.deleteExpiredResponses,
      (at: number) => usage.deleteUsageBefore(at - retentionMs),
      (at: number) => audit.deleteAuditBefore(at - auditRetentionMs),
      (at: number) => alertDeliveries.deleteAlertDeliveriesBefore(at - alertDeliveryRetentionMs),
    ]),
    { intervalMs, now, ...(options.onSweepError && { onError: options.onSweepError }) },
  );
  let closed = false;
  const methods = gateMethods(
    {
      ...createAccountMethods(context, accountCache),
      ...createApiKeyMethods(context, keyCache),
      ...createConsoleTokenMethods(context),
      ...createBudgetMethods(context),
      ...alertDeliveries,
      ...reservations,
      ...responses,
      ...usage,
      ...audit,
    },
    { idle: sweeps.idle, isClosed: () => closed },
  );
  const gatedVersions = gateMethods(configVersions, { idle: sweeps.idle, isClosed: () => closed });
  return {
    ...methods,
    configVersions: {
      ...gatedVersions,
      watchConfigVersions(onVersion) {
        return subscribeConfigVersions(notifications, {
          latest: () => gatedVersions.latestConfigVersion(),
          onVersion,
          ...(options.onSweepError && { onError: options.onSweepError }),
        });
      },
    },
    async ping() {
      // One round trip on a pooled connection: rejects while the database is unreachable, and once closed.
      if (closed) throw new Error(CLOSED_MESSAGE);
      await context.sql.rows('SELECT 1');
    },
    async close() {
      if (closed) return;
      closed = true;
      stopSweep();
      notifications.close();
      await sweeps.idle();
      try {
        await leases?.endAll().catch(() => undefined);
        await unregisterHoldOwner(context.maintenance.sql, context.ownerId);
      } finally {
        await endPools();
      }
    },
  };
}

/** Keeps `cache`'s rows while `channel`'s announcements reach this instance; each one empties it. */
function keepWhileAnnounced(notifications: NotificationListener, channel: string, cache: AnnouncedCache): void {
  notifications.subscribe({
    channel,
    onMessage: cache.clear,
    onListening: () => cache.setAnnounced(true),
    onLost: () => cache.setAnnounced(false),
  });
}

/** Schema up to date, this instance registered as a hold owner, abandoned holds released, expired responses deleted. */
async function openStore(
  pools: { pool: pg.Pool; maintenancePool: pg.Pool },
  serverSecret: string,
  now: () => number,
  ownerTimeoutMs: number,
): Promise<StoreContext> {
  const sql = createSqlSession(pools.pool);
  const transaction = createTransactionRunner(pools.pool);
  const maintenance = { sql: createSqlSession(pools.maintenancePool), transaction: createTransactionRunner(pools.maintenancePool) };
  await migrateSchema(transaction);
  const ownerId = await registerHoldOwner(maintenance.sql, now());
  await maintenance.transaction(session => releaseAbandonedHolds(session, { now: now(), selfId: ownerId, ownerTimeoutMs }));
  await sql.rows('DELETE FROM responses WHERE expires_at <= $1', [now()]);
  return { sql, transaction, maintenance, serverSecret, ownerId, now };
}
