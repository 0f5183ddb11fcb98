export { createSQLiteAccountStore, type SQLiteAccountStoreOptions } from './create-sqlite-account-store';
export { SingleGatewayInUseError } from './single-gateway-in-use-error';
