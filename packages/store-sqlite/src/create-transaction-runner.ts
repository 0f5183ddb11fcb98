import type { DatabaseSync } from 'node:sqlite';

/** Runs `work` as one transaction and returns its result; rolls back and rethrows when it throws. */
export type TransactionRunner = <T>(work: () => T) => T;

/**
 * Wraps work in `BEGIN IMMEDIATE … COMMIT` with statements prepared once. IMMEDIATE takes the write
 * lock up front (waiting up to `busy_timeout`), so reads inside see the latest committed rows and no
 * other connection or process can write until we commit.
 */
export function createTransactionRunner(database: DatabaseSync): TransactionRunner {
  const begin = database.prepare('BEGIN IMMEDIATE');
  const commit = database.prepare('COMMIT');
  const rollback = database.prepare('ROLLBACK');
  return work => {
    begin.run();
    try {
      const result = work();
      commit.run();
      return result;
    } catch (error) {
      if (database.isTransaction) rollback.run();
      throw error;
    }
  };
}
