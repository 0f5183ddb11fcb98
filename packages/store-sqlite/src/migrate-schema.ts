import type { DatabaseSync } from 'node:sqlite';
import { ACCOUNTS_AND_KEYS, CONSOLE_TOKENS, HOLD_EXPIRY_AND_OWNERS, KEY_DISABLED_BY_AND_CEILING } from './account-schema-steps';
import { ALERT_DELIVERIES, BUDGETS, CONFIG_VERSIONS, ROLES_AND_AUDIT_LOG } from './administration-schema-steps';
import type { TransactionRunner } from './create-transaction-runner';
import { RESPONSE_BYTES, RESPONSE_CONVERSATION_KEY, STORED_RESPONSES } from './response-schema-steps';
import { USAGE_CACHE_WRITES, USAGE_LEDGER, USAGE_TRACE_ID, USAGE_UPSTREAM_CREDENTIAL, USAGE_UPSTREAM_KIND } from './usage-schema-steps';

/**
 * Schema steps in order: step `n` takes the database from `PRAGMA user_version = n` to `n + 1`.
 * Append new steps; never edit a released one. Money columns are integer micro-units.
 */
const MIGRATIONS: readonly string[] = [
  ACCOUNTS_AND_KEYS,
  HOLD_EXPIRY_AND_OWNERS,
  STORED_RESPONSES,
  RESPONSE_BYTES,
  USAGE_LEDGER,
  CONSOLE_TOKENS,
  USAGE_TRACE_ID,
  KEY_DISABLED_BY_AND_CEILING,
  USAGE_CACHE_WRITES,
  USAGE_UPSTREAM_CREDENTIAL,
  RESPONSE_CONVERSATION_KEY,
  USAGE_UPSTREAM_KIND,
  ROLES_AND_AUDIT_LOG,
  CONFIG_VERSIONS,
  BUDGETS,
  ALERT_DELIVERIES,
];

/** The schema version this build writes; a database with a higher one was made by a newer build. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the schema up to `SCHEMA_VERSION`. Runs under the write lock and re-reads the version
 * inside it, so several processes opening one new file at once migrate it exactly once.
 */
export function migrateSchema(database: DatabaseSync, transaction: TransactionRunner): void {
  transaction(() => {
    const version = readUserVersion(database);
    if (version > SCHEMA_VERSION) {
      throw new Error(
        `SQLite account store schema version ${version} is newer than this build (${SCHEMA_VERSION}).`,
      );
    }
    for (let step = version; step < SCHEMA_VERSION; step++) database.exec(MIGRATIONS[step]!);
    if (version !== SCHEMA_VERSION) database.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  });
}

function readUserVersion(database: DatabaseSync): number {
  const row = database.prepare('PRAGMA user_version').get();
  return Number(row?.['user_version'] ?? 0);
}
