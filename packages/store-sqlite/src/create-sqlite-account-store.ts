import type { DatabaseSync } from 'node:sqlite';
import {
  DEFAULT_ALERT_DELIVERY_RETENTION_DAYS,
  DEFAULT_CACHE_REFRESH_MS,
  DEFAULT_HOLD_SWEEP_INTERVAL_MS,
  startStoreSweep,
  usageRetentionMs,
  type AccountStore,
} from '@signalbox/accounts';
import { createAccountCache } from './create-account-cache';
import { createAccountMethods } from './create-account-methods';
import { createAlertDeliveryMethods } from './create-alert-delivery-methods';
import { createApiKeyMethods } from './create-api-key-methods';
import { createAuditMethods } from './create-audit-methods';
import { createBudgetMethods } from './create-budget-methods';
import { createChangeWatcher } from './create-change-watcher';
import { createConfigVersionMethods } from './create-config-version-methods';
import { createConsoleTokenMethods } from './create-console-token-methods';
import { createMemoryHolds } from './create-memory-holds';
import { createReservationMethods } from './create-reservation-methods';
import { createResponseMethods } from './create-response-methods';
import { createResponseQueue } from './create-response-queue';
import { createRowCache } from './create-row-cache';
import { createTransactionRunner } from './create-transaction-runner';
import { createLazyLedgerThread, createThreadedUsageMethods, type LazyLedgerThread } from './create-threaded-usage-methods';
import { createUsageMethods } from './create-usage-methods';
import { refuseSecondSingleGateway, registerHoldOwner, unregisterHoldOwner } from './hold-owners';
import { migrateSchema } from './migrate-schema';
import { openDatabase } from './open-database';
import { prepareStatements } from './prepare-statements';
import { releaseAbandonedHolds } from './release-abandoned-holds';
import { isDatabaseFile } from './restrict-database-files';
import type { StoreContext } from './store-context';

/** Where the store lives and how it treats keys, locks and abandoned holds. */
export type SQLiteAccountStoreOptions = {
  /** Database file (created if missing), or `:memory:` for a private in-memory database. */
  path: string;
  /** HMAC key for API key digests. Keys are only findable with the secret they were created under. */
  serverSecret: string;
  /** How long a statement waits for another process's write lock before failing. Default 5 000 ms. */
  busyTimeoutMs?: number;
  /** The clock holds are made and expire by. Default `Date.now`. */
  now?: () => number;
  /**
   * How often, while open, the store releases holds that expired or whose process is gone and
   * deletes expired responses (0 turns the timer off; `releaseExpiredHolds` and
   * `deleteExpiredResponses` still work). Default 60 000 ms.
   */
  holdSweepIntervalMs?: number;
  /**
   * Ledger rows older than this many days are deleted by the sweep (the gateway config's
   * `usage.retentionDays`). Default `DEFAULT_USAGE_RETENTION_DAYS` (400).
   */
  usageRetentionDays?: number;
  /** Audit log entries older than this many days are deleted by the sweep. Default `DEFAULT_USAGE_RETENTION_DAYS` (400). */
  auditRetentionDays?: number;
  /** Alert delivery attempts older than this many days are deleted by the sweep. Default `DEFAULT_ALERT_DELIVERY_RETENTION_DAYS` (30). */
  alertDeliveryRetentionDays?: number;
  /**
   * Told about periodic work that failed (a sweep on a busy database, a WAL checkpoint); the next
   * one runs as usual.
   */
  onSweepError?: (error: unknown) => void;
  /**
   * `true` when this process is the only gateway using the file (the CLI, and readers such as
   * another process's panel, may still open it). Holds are then kept in this process's memory and
   * made durable with the ledger write, account rows are cached, and response saves are queued and
   * written in batches; see the README. Default `false`: every hold is a row, so any number of
   * gateway processes may share the file.
   */
  singleGateway?: boolean;
  /**
   * The longest a cached key (and, for a single gateway, a cached balance) may go on being used after
   * another connection (the CLI, another process) changed its row: the store looks for other
   * connections' commits at most this often. Changes made through this store apply at once.
   * Default 1 000 ms.
   */
  cacheRefreshMs?: number;
  /**
   * For a single gateway on a file: how often its ledger thread, once started, copies the
   * write-ahead log into the database. Default 1 000 ms; 0 leaves it to SQLite's checkpoints inside commits.
   */
  checkpointIntervalMs?: number;
  /**
   * Told about a queued response save that could not be written (a single gateway writes them in
   * batches after `saveResponse` has returned; the save is dropped), and about a ledger thread that
   * failed (its calls then run on the store's own connection). Default: a process warning.
   */
  onWriteError?: (error: unknown) => void;
};

const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/** How often a single gateway's ledger thread copies the write-ahead log into the database: once a second. */
const DEFAULT_CHECKPOINT_INTERVAL_MS = 1000;
/** SQLite's own default: a commit checkpoints once the log passes this many pages. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/**
 * The embedded default `AccountStore`: accounts, key and console token digests, holds, stored
 * conversations and the usage ledger (rows and balance events) in one SQLite file that any number
 * of gateway processes may share. Same semantics as
 * `createMemoryAccountStore`; methods are async per the interface although `node:sqlite` runs them
 * synchronously. Each open store is one hold owner: at open it releases the holds of owners that are
 * gone (a process killed before it could settle) and the expired ones, and deletes expired
 * responses; it keeps doing both, and deletes ledger rows past their retention, on a timer until `close`.
 */
export function createSQLiteAccountStore(options: SQLiteAccountStoreOptions): AccountStore {
  if (!options.serverSecret) throw new Error('createSQLiteAccountStore needs a non-empty serverSecret.');
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0)
    throw new Error('busyTimeoutMs must be an integer >= 0.');
  const now = options.now ?? Date.now;
  const retentionMs = usageRetentionMs(options.usageRetentionDays);

  const database = openDatabase(options.path, busyTimeoutMs);
  const ledgerThread = createLedgerThread(database, options, busyTimeoutMs);
  let context: StoreContext;
  try {
    context = prepareStore(database, options, now, ledgerThread);
  } catch (error) {
    database.close();
    throw error;
  }
  const reservations = createReservationMethods(context);
  const responses = createResponseMethods(context);
  const { closeThreads, ...usage } = ledgerThread
    ? createThreadedUsageMethods(context, ledgerThread)
    : { ...createUsageMethods(context), closeThreads: async () => undefined };
  const audit = createAuditMethods(context);
  const auditRetentionMs = usageRetentionMs(options.auditRetentionDays);
  const alertDeliveries = createAlertDeliveryMethods(context);
  const alertDeliveryRetentionMs = usageRetentionMs(options.alertDeliveryRetentionDays ?? DEFAULT_ALERT_DELIVERY_RETENTION_DAYS);
  const sweeps = [
    reservations.releaseExpiredHolds,
    responses.deleteExpiredResponses,
    (at: number) => usage.deleteUsageBefore(at - retentionMs),
    (at: number) => audit.deleteAuditBefore(at - auditRetentionMs),
    (at: number) => alertDeliveries.deleteAlertDeliveriesBefore(at - alertDeliveryRetentionMs),
  ];
  const stopSweep = startStoreSweep(sweeps, {
    intervalMs: options.holdSweepIntervalMs ?? DEFAULT_HOLD_SWEEP_INTERVAL_MS,
    now,
    ...(options.onSweepError && { onError: options.onSweepError }),
  });
  let closed = false;
  return {
    ...createAccountMethods(context),
    ...createApiKeyMethods(context),
    ...createConsoleTokenMethods(context),
    ...createBudgetMethods(context),
    ...alertDeliveries,
    ...reservations,
    ...responses,
    ...usage,
    ...audit,
    configVersions: createConfigVersionMethods(context),
    async ping() {
      // Throws once the database is closed (or its file can no longer be read).
      database.prepare('SELECT 1').get();
    },
    async close() {
      if (closed) return;
      closed = true;
      stopSweep();
      try {
        // The batches already sent to the ledger thread are committed before anything else closes.
        await closeThreads();
        context.responseQueue?.close();
        unregisterHoldOwner(database, context.ownerId);
      } finally {
        database.close();
      }
    },
  };
}

/**
 * Schema up to date, this instance registered as a hold owner (refused if it would be a second
 * single gateway on the file), abandoned holds released, expired responses deleted, statements
 * prepared.
 */
function prepareStore(
  database: DatabaseSync,
  options: SQLiteAccountStoreOptions,
  now: () => number,
  ledgerThread: LazyLedgerThread | undefined,
): StoreContext {
  const transaction = createTransactionRunner(database);
  migrateSchema(database, transaction);
  const singleGateway = options.singleGateway === true;
  const ownerId = registerHoldOwner(database, now(), singleGateway);
  releaseAbandonedHolds(database, transaction, now());
  if (singleGateway) refuseSecondSingleGateway(database, ownerId);
  const statements = prepareStatements(database);
  statements.deleteExpiredResponses.run(now());
  const watcher = createChangeWatcher(database, {
    intervalMs: options.cacheRefreshMs ?? DEFAULT_CACHE_REFRESH_MS,
    now,
  });
  return {
    database,
    statements,
    transaction,
    serverSecret: options.serverSecret,
    ownerId,
    now,
    keys: createRowCache(watcher),
    accounts: createAccountCache(statements, watcher, singleGateway),
    holds: singleGateway ? createMemoryHolds() : undefined,
    responseQueue: singleGateway
      ? createResponseQueue({
          statements,
          transaction,
          onError: options.onWriteError ?? warnOfLostSave,
          // A batch of saves waits for the ledger thread to finish its batch rather than wait for its lock on the event loop.
          ...(ledgerThread && { whenWritable: ledgerThread.whenIdle }),
        })
      : undefined,
  };
}

/**
 * For a single gateway on a file: the ledger's writes and reads, and the WAL checkpoints, on a thread
 * of their own (see `createThreadedUsageMethods`), started at the ledger's first call. SQLite
 * checkpoints inside the commit that pushes the log past 1 000 pages, copying pages and syncing the
 * file on the committing thread (https://www.sqlite.org/wal.html#automatic_checkpoint); once the
 * thread runs, the store's connection stops doing so (`wal_autocheckpoint = 0`) and the thread
 * checkpoints every `checkpointIntervalMs`, until it fails. Otherwise none: the ledger runs on the
 * store's connection, as every process sharing the file expects (a thread's commits would make
 * this process's holds wait for the lock).
 */
function createLedgerThread(database: DatabaseSync, options: SQLiteAccountStoreOptions, busyTimeoutMs: number): LazyLedgerThread | undefined {
  if (options.singleGateway !== true || !isDatabaseFile(options.path)) return undefined;
  const checkpointIntervalMs = options.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS;
  const autocheckpoint = (pages: number) => {
    if (checkpointIntervalMs > 0 && database.isOpen) database.exec(`PRAGMA wal_autocheckpoint = ${pages}`);
  };
  const warn = options.onWriteError ?? ((error: unknown) => process.emitWarning(String(error)));
  return createLazyLedgerThread(
    { path: options.path, busyTimeoutMs, checkpointIntervalMs },
    {
      onStart: () => autocheckpoint(0),
      onLost(error) {
        autocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
        warn(error);
      },
      onCheckpointError: options.onSweepError ?? (() => undefined),
    },
  );
}

function warnOfLostSave(error: unknown): void {
  process.emitWarning(`A stored response could not be written and was dropped: ${String(error)}`);
}
