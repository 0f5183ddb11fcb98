import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { describeAccountStoreContract } from './account-store-contract';
import { usePostgresTestDatabases } from './postgres-test-databases';

const SERVER_SECRET = 'postgres-test-server-secret';
/**
 * How long a call waits for one of the pool's 10 connections: as long as a test may take (jest's
 * 20 s), since 200 holds at once queue for them and a loaded machine serves the queue slowly
 * (the store's default of 5 s was not enough under a load average of 16).
 */
const CONNECT_TIMEOUT_MS = 20_000;
const databases = usePostgresTestDatabases();

describeAccountStoreContract('postgres', async clock =>
  createPostgresAccountStore({
    connectionString: await databases.createMigratedDatabase(),
    serverSecret: SERVER_SECRET,
    holdSweepIntervalMs: 0,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    ...clock,
  }),
);
