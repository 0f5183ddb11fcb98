import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { describeAccountStoreContract } from './account-store-contract';
import { usePostgresTestDatabases } from './postgres-test-databases';

const SERVER_SECRET = 'postgres-test-server-secret';
const databases = usePostgresTestDatabases();

describeAccountStoreContract('postgres', async clock =>
  createPostgresAccountStore({
    connectionString: await databases.createMigratedDatabase(),
    serverSecret: SERVER_SECRET,
    holdSweepIntervalMs: 0,
    ...clock,
  }),
);
