import { createMemoryAccountStore, digestAdminToken, type AccountStore } from '@signalbox/accounts';
import { ensureAdminTokenFile, watchAdminTokenFile } from './admin-token-file';
import { deriveConversationSecret } from './derive-conversation-secret';
import { openDataDirectory } from './open-data-directory';
import { loadPostgresStoreOpener, loadSQLiteStoreFactory } from './load-on-demand';
import type { ExampleServerOptions } from './start-example-server';

/** What `openStorage` opens for the example server. */
export type Storage = {
  store: AccountStore;
  adminTokenDigests: () => readonly string[];
  newAdminToken: string | undefined;
  /** Kept in the data folder's secret; absent in memory, where nothing survives a restart anyway. */
  conversationSecret?: string;
};

/**
 * The account store (keeping ledger rows `usageRetentionDays` days) and console token digests for
 * the chosen storage. A data folder's token is read from its file while the server runs, so
 * `admin-token rotate` takes effect without a restart; `SIGNALBOX_ADMIN_TOKEN` (in
 * `options.environment`, else the process's) replaces that file.
 */
export async function openStorage(options: ExampleServerOptions, usageRetentionDays: number): Promise<Storage> {
  const storage = options.storage ?? { kind: 'memory' };
  if (storage.kind === 'memory' || storage.kind === 'store') {
    const digests = storage.adminToken ? [digestAdminToken(storage.adminToken)] : [];
    return {
      store: storage.kind === 'store' ? storage.store : createMemoryAccountStore({ usageRetentionDays }),
      adminTokenDigests: () => digests,
      newAdminToken: undefined,
    };
  }
  if (storage.kind === 'postgres') {
    const store = await loadPostgresStoreOpener()({ ...storage, usageRetentionDays, ...(options.logger && { logger: options.logger }) });
    const digests = [...storage.adminTokenDigests];
    if (digests.length === 0) options.logger?.warn({}, 'no SIGNALBOX_ADMIN_TOKEN_SHA256 or SIGNALBOX_ADMIN_TOKEN: only account console tokens can use /admin and the panel');
    return { store, adminTokenDigests: () => digests, newAdminToken: undefined, conversationSecret: deriveConversationSecret(storage.serverSecret) };
  }
  const environment = options.environment ?? process.env;
  const directory = openDataDirectory(storage.path, environment, {
    ...(options.logger && { warn: (message: string) => options.logger?.warn({ dataDirectory: storage.path }, message) }),
  });
  const store = loadSQLiteStoreFactory()({
    path: directory.databasePath,
    serverSecret: directory.serverSecret,
    usageRetentionDays,
    singleGateway: true,
    onWriteError: error => options.logger?.warn({ err: error }, 'a stored response could not be written; a later reference to it is a 404'),
    onSweepError: error => options.logger?.warn({ err: error }, 'a store sweep or WAL checkpoint failed; the next one runs as usual'),
  });
  const givenToken = environment.SIGNALBOX_ADMIN_TOKEN;
  if (givenToken) {
    const digests = [digestAdminToken(givenToken)];
    return { store, adminTokenDigests: () => digests, newAdminToken: undefined, conversationSecret: directory.conversationSecret };
  }
  const newAdminToken = ensureAdminTokenFile(directory.adminTokenFile);
  const adminTokenDigests = watchAdminTokenFile(directory.adminTokenFile, { ...(options.now && { now: options.now }) });
  return { store, adminTokenDigests, newAdminToken, conversationSecret: directory.conversationSecret };
}
