import type { DatabaseSync } from 'node:sqlite';
import type { AccountStore } from '@switchyard/accounts';
import { createAccountMethods } from './create-account-methods';
import { createApiKeyMethods } from './create-api-key-methods';
import { createReservationMethods } from './create-reservation-methods';
import { createTransactionRunner } from './create-transaction-runner';
import { migrateSchema } from './migrate-schema';
import { openDatabase } from './open-database';
import { prepareStatements } from './prepare-statements';
import { releaseStaleReservations } from './release-stale-reservations';
import type { StoreContext } from './store-context';

/** Where the store lives and how it treats keys, locks and abandoned holds. */
export type SQLiteAccountStoreOptions = {
  /** Database file (created if missing), or `:memory:` for a private in-memory database. */
  path: string;
  /** HMAC key for API key digests. Keys are only findable with the secret they were created under. */
  serverSecret: string;
  /**
   * On open, holds at least this old are released without charge: they were left by a process that
   * died before `settle`. Must exceed the longest request. Default 3 600 000 (1 hour); `Infinity` keeps all.
   */
  staleReservationMs?: number;
  /** How long a statement waits for another process's write lock before failing. Default 5 000 ms. */
  busyTimeoutMs?: number;
};

const DEFAULT_STALE_RESERVATION_MS = 60 * 60 * 1000;
const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * The embedded default `AccountStore`: accounts, key digests and holds in one SQLite file that any
 * number of gateway processes may share. Same semantics as `createMemoryAccountStore`; methods are
 * async per the interface although `node:sqlite` runs them synchronously.
 */
export function createSQLiteAccountStore(options: SQLiteAccountStoreOptions): AccountStore {
  if (!options.serverSecret) throw new Error('createSQLiteAccountStore needs a non-empty serverSecret.');
  const staleReservationMs = options.staleReservationMs ?? DEFAULT_STALE_RESERVATION_MS;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!(staleReservationMs >= 0)) throw new Error('staleReservationMs must be a number >= 0.');
  if (!Number.isSafeInteger(busyTimeoutMs) || busyTimeoutMs < 0)
    throw new Error('busyTimeoutMs must be an integer >= 0.');

  const database = openDatabase(options.path, busyTimeoutMs);
  let context: StoreContext;
  try {
    context = prepareStore(database, options.serverSecret, staleReservationMs);
  } catch (error) {
    database.close();
    throw error;
  }
  let closed = false;
  return {
    ...createAccountMethods(context),
    ...createApiKeyMethods(context),
    ...createReservationMethods(context),
    async close() {
      if (closed) return;
      closed = true;
      database.close();
    },
  };
}

/** Schema up to date, abandoned holds released, statements prepared: everything done once per open. */
function prepareStore(
  database: DatabaseSync,
  serverSecret: string,
  staleReservationMs: number,
): StoreContext {
  const transaction = createTransactionRunner(database);
  migrateSchema(database, transaction);
  if (Number.isFinite(staleReservationMs)) {
    releaseStaleReservations(database, transaction, Date.now() - staleReservationMs);
  }
  return { statements: prepareStatements(database), transaction, serverSecret };
}
