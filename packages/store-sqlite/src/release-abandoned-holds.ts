import type { DatabaseSync } from 'node:sqlite';
import type { TransactionRunner } from './create-transaction-runner';
import { forgetDeadOwners } from './hold-owners';

/** A hold nobody will settle: expired, or made by an owner whose row is gone (closed, or found dead). */
const ABANDONED = `(expires_at <= ?1 OR (owner_id IS NOT NULL AND owner_id NOT IN (SELECT id FROM hold_owners)))`;

/**
 * Releases (without charging) every hold that is expired at `now` or whose owner is gone, in one
 * transaction, and returns how many it released. Such a hold belongs to a request that will never
 * settle it (its process crashed, or it outlived its deadline) and would otherwise keep that money
 * unusable. A later `settle` of a released hold does nothing.
 */
export function releaseAbandonedHolds(database: DatabaseSync, transaction: TransactionRunner, now: number): number {
  return transaction(() => {
    forgetDeadOwners(database);
    database
      .prepare(
        `UPDATE accounts
         SET reserved_micros = reserved_micros
           - (SELECT SUM(amount_micros) FROM reservations WHERE account_id = accounts.id AND ${ABANDONED})
         WHERE id IN (SELECT account_id FROM reservations WHERE ${ABANDONED})`,
      )
      .run(now);
    return Number(database.prepare(`DELETE FROM reservations WHERE ${ABANDONED}`).run(now).changes);
  });
}
