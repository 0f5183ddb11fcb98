export { ACCOUNT_BALANCE_HINT_MAX_AGE_MS, createPostgresAccountStore, type PostgresAccountStoreOptions } from './create-postgres-account-store';
export type { BalanceLeaseOptions } from './create-balance-leases';
