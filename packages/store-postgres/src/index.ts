export { createPostgresAccountStore, type PostgresAccountStoreOptions } from './create-postgres-account-store';
export type { BalanceLeaseOptions } from './create-balance-leases';
