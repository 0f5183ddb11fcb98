export { createSQLiteAccountStore, type SQLiteAccountStoreOptions } from './create-sqlite-account-store';
