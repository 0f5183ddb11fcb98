export { createPostgresAccountStore, type PostgresAccountStoreOptions } from './create-postgres-account-store';
