import { createMemoryAccountStore, digestAdminToken, type AccountStore } from '@signalbox/accounts';
import { ensureAdminTokenFile, watchAdminTokenFile } from './admin-token-file';
import { deriveConversationSecret } from './derive-conversation-secret';
import { openDataDirectory } from './open-data-directory';
import { loadPostgresStoreOpener, loadSQLiteStore } from './load-on-demand';
import type { ExampleServerOptions } from './start-example-server';
import { StartUpError } from './start-up-error';

/**
 * Where the admin token comes from: `SIGNALBOX_ADMIN_TOKEN` (or `SIGNALBOX_ADMIN_TOKEN_SHA256`, or
 * the host's `adminToken`), the data folder's file (made on its first start), or nowhere.
 */
export type AdminTokenSource = 'given' | 'data-folder' | 'none';

/** How many days the store keeps ledger rows, audit log entries and alert delivery attempts (the config's `usage`, `audit` and `alertDeliveries`). */
export type StoreRetention = { usageRetentionDays: number; auditRetentionDays: number; alertDeliveryRetentionDays: number };

/** What `openStorage` opens for the example server. */
export type Storage = {
  store: AccountStore;
  adminTokenDigests: () => readonly string[];
  adminTokenSource: AdminTokenSource;
  /**
   * For a data folder without an admin token yet: creates it and returns it (to be shown once),
   * and `adminTokenDigests` accepts it at once; `undefined` when the folder has one already.
   */
  createAdminToken?: () => string | undefined;
  /** Kept in the data folder's secret; absent in memory, where nothing survives a restart anyway. */
  conversationSecret?: string;
  /** The server secret config secrets are sealed under (`config.secrets: "encrypted"`); absent for a store of the host's or memory. */
  serverSecret?: string;
};

/**
 * The account store (keeping ledger rows, audit entries and alert deliveries as `retention` says) and console token digests for
 * the chosen storage. A data folder's token is read from its file while the server runs, so
 * `admin-token rotate` takes effect without a restart; `SIGNALBOX_ADMIN_TOKEN` (in
 * `options.environment`, else the process's) replaces that file. No secret anyone must see is
 * made here: the first admin token waits for `createAdminToken`, once the server listens.
 */
export async function openStorage(options: ExampleServerOptions, retention: StoreRetention): Promise<Storage> {
  const storage = options.storage ?? { kind: 'memory' };
  if (storage.kind === 'memory' || storage.kind === 'store') {
    const digests = storage.adminToken ? [digestAdminToken(storage.adminToken)] : [];
    return {
      store: storage.kind === 'store' ? storage.store : createMemoryAccountStore(retention),
      adminTokenDigests: () => digests,
      adminTokenSource: digests.length > 0 ? 'given' : 'none',
    };
  }
  if (storage.kind === 'postgres') {
    const store = await loadPostgresStoreOpener()({ ...storage, ...retention, ...(options.logger && { logger: options.logger }) });
    const digests = [...storage.adminTokenDigests];
    if (digests.length === 0) options.logger?.warn({}, 'no SIGNALBOX_ADMIN_TOKEN_SHA256 or SIGNALBOX_ADMIN_TOKEN: only account console tokens can use /admin and the panel');
    return {
      store,
      adminTokenDigests: () => digests,
      adminTokenSource: digests.length > 0 ? 'given' : 'none',
      conversationSecret: deriveConversationSecret(storage.serverSecret),
      serverSecret: storage.serverSecret,
    };
  }
  return openDataFolderStorage(storage.path, options, retention);
}

/** A data folder: its SQLite file opened as this process's single gateway, and its admin token. */
function openDataFolderStorage(path: string, options: ExampleServerOptions, retention: StoreRetention): Storage {
  const environment = options.environment ?? process.env;
  const directory = openDataDirectory(path, environment, {
    ...(options.logger && { warn: (message: string) => options.logger?.warn({ dataDirectory: path }, message) }),
  });
  const { createSQLiteAccountStore, SingleGatewayInUseError } = loadSQLiteStore();
  let store: AccountStore;
  try {
    store = createSQLiteAccountStore({
      path: directory.databasePath,
      serverSecret: directory.serverSecret,
      ...retention,
      singleGateway: true,
      onWriteError: error => options.logger?.warn({ err: error }, 'a stored response could not be written; a later reference to it is a 404'),
      onSweepError: error => options.logger?.warn({ err: error }, 'a store sweep or WAL checkpoint failed; the next one runs as usual'),
    });
  } catch (error) {
    if (!(error instanceof SingleGatewayInUseError)) throw error;
    throw new StartUpError(
      `SIGNALBOX_DATA_DIR=${path}: another Signalbox server (process ${error.pid}) is running on this data folder; stop it, or start this one with SIGNALBOX_DATA_DIR set to another folder (and PORT to another port); instances that share keys and balances share a database instead (SIGNALBOX_DATABASE_URL)`,
      { cause: error },
    );
  }
  const givenToken = environment.SIGNALBOX_ADMIN_TOKEN;
  if (givenToken) {
    const digests = [digestAdminToken(givenToken)];
    return { store, adminTokenDigests: () => digests, adminTokenSource: 'given', conversationSecret: directory.conversationSecret, serverSecret: directory.serverSecret };
  }
  return {
    store,
    ...watchDataFolderAdminToken(directory.adminTokenFile, options.clock?.now),
    conversationSecret: directory.conversationSecret,
    serverSecret: directory.serverSecret,
  };
}

/** The data folder's admin token file, watched for rotations, and the way to create its first token. */
function watchDataFolderAdminToken(file: string, now: (() => number) | undefined): Pick<Storage, 'adminTokenDigests' | 'adminTokenSource' | 'createAdminToken'> {
  const watch = () => watchAdminTokenFile(file, { ...(now && { now }) });
  let current = watch();
  return {
    adminTokenDigests: () => current(),
    adminTokenSource: 'data-folder',
    createAdminToken: () => {
      const token = ensureAdminTokenFile(file);
      // Read now rather than at the watcher's next look (up to a second away): the token is about to be shown, and used.
      if (token !== undefined) current = watch();
      return token;
    },
  };
}
