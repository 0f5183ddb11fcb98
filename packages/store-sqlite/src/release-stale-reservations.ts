import type { DatabaseSync } from 'node:sqlite';
import type { TransactionRunner } from './create-transaction-runner';

/**
 * Releases (without charging) every hold created at or before `cutoff`, in one transaction, and
 * returns how many it released. Holds belong to requests in flight; one this old was left by a
 * process that crashed before `settle`, and would otherwise keep that money unusable forever.
 */
export function releaseStaleReservations(
  database: DatabaseSync,
  transaction: TransactionRunner,
  cutoff: number,
): number {
  return transaction(() => {
    database
      .prepare(
        `UPDATE accounts
         SET reserved_micros = reserved_micros
           - (SELECT SUM(amount_micros) FROM reservations WHERE account_id = accounts.id AND created_at <= ?1)
         WHERE id IN (SELECT account_id FROM reservations WHERE created_at <= ?1)`,
      )
      .run(cutoff);
    return Number(database.prepare('DELETE FROM reservations WHERE created_at <= ?').run(cutoff).changes);
  });
}
