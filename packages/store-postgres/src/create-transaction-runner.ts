import type pg from 'pg';
import { createSqlSession, type SqlSession } from './sql-session';

/** Runs `work` as one transaction on one connection and returns its result; rolls back and rethrows when it throws. */
export type TransactionRunner = <T>(work: (sql: SqlSession) => Promise<T>) => Promise<T>;

/**
 * `BEGIN … COMMIT` on a client checked out of the pool for the whole transaction (READ COMMITTED,
 * PostgreSQL's default: each statement sees the latest committed rows, and an UPDATE that waited
 * for a row lock re-checks its WHERE against the row's newest version). A failed transaction is
 * rolled back and its client released; a client whose connection broke is destroyed, not reused.
 * While checked out, the client's own `error` event (the server went away mid-transaction) is
 * caught here: the statement in flight rejects on its own, and an unheard `error` would end the
 * process.
 */
export function createTransactionRunner(pool: pg.Pool): TransactionRunner {
  return async work => {
    const client = await pool.connect();
    let broken: Error | undefined;
    const onBroken = (error: Error) => (broken = error);
    client.on('error', onBroken);
    try {
      await client.query('BEGIN');
      const result = await work(createSqlSession(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      client.off('error', onBroken);
      client.release(broken);
    }
  };
}
