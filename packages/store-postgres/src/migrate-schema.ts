import type { TransactionRunner } from './create-transaction-runner';
import { SCHEMA_STEPS } from './schema-steps';

/** The schema version this build writes; a database with a higher one was made by a newer build. */
export const SCHEMA_VERSION = SCHEMA_STEPS.length;

/**
 * The advisory lock key every instance takes while migrating ('SWYD' in ASCII): a transaction-level
 * lock, so it is let go at COMMIT or ROLLBACK, and by the server if the connection dies.
 */
const MIGRATION_LOCK = 0x53575944;

/**
 * Brings the schema up to `SCHEMA_VERSION` in one transaction that first takes
 * `pg_advisory_xact_lock`, then reads the versions applied. Two instances starting at once on a
 * fresh database queue on the lock; the second reads the versions the first committed and applies
 * nothing, so every step runs exactly once. A database with a version this build does not know is
 * refused before anything is written.
 */
export async function migrateSchema(transaction: TransactionRunner): Promise<void> {
  await transaction(async sql => {
    await sql.rows('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await sql.rows(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const version = Number((await sql.row('SELECT COALESCE(MAX(version), 0) AS version FROM schema_migrations'))!['version']);
    if (version > SCHEMA_VERSION) {
      throw new Error(`PostgreSQL account store schema version ${version} is newer than this build (${SCHEMA_VERSION}).`);
    }
    for (let step = version; step < SCHEMA_VERSION; step++) {
      await sql.rows(SCHEMA_STEPS[step]!);
      await sql.rows('INSERT INTO schema_migrations (version) VALUES ($1)', [step + 1]);
    }
  });
}
