import { lockAccounts } from './account-statements';
import { endLeases } from './balance-lease-statements';
import type { SqlSession } from './sql-session';

/** A hold (or lease) nobody will settle: expired at `$1`, or made by an owner whose row is gone (closed, or silent past the bound). */
const ABANDONED = 'expires_at <= $1 OR owner_id NOT IN (SELECT id FROM hold_owners)';

/**
 * Releases (without charging), in one statement, every hold that is expired at `$1` or whose owner
 * row is gone, and returns how many it released. Each released hold's amount leaves its account's
 * `reserved_micros` in the same statement, so no reader ever sees one without the other.
 */
const RELEASE = `
  WITH released AS (
    DELETE FROM reservations
    WHERE ${ABANDONED}
    RETURNING account_id, amount_micros
  ), totals AS (
    SELECT account_id, SUM(amount_micros) AS amount FROM released GROUP BY account_id
  ), updated AS (
    UPDATE accounts SET reserved_micros = reserved_micros - totals.amount
    FROM totals WHERE accounts.id = totals.account_id
    RETURNING 1
  )
  SELECT COUNT(*) AS released FROM released`;

/**
 * Forgets the owners whose heartbeat is older than `ownerTimeoutMs` at `now` (never `selfId`: this
 * instance is alive, whatever time the caller passes), then releases every hold that is expired at
 * `now` or whose owner is gone: closed cleanly, or crashed and gone silent past the bound. Such a
 * hold belongs to a request nobody will settle and would otherwise keep that money unusable. A
 * later `settle` of a released hold does nothing.
 */
export async function releaseAbandonedHolds(
  sql: SqlSession,
  options: { now: number; selfId: string; ownerTimeoutMs: number },
): Promise<number> {
  await sql.rows('DELETE FROM hold_owners WHERE updated_at < $1 AND id <> $2', [
    options.now - options.ownerTimeoutMs,
    options.selfId,
  ]);
  // The accounts first, in the order every hold change locks them, then the holds and leases.
  const accounts = await sql.rows(
    `SELECT account_id FROM reservations WHERE ${ABANDONED} UNION SELECT account_id FROM balance_leases WHERE ${ABANDONED}`,
    [options.now],
  );
  await lockAccounts(sql, accounts.map(row => String(row['account_id'])));
  const released = Number((await sql.row(RELEASE, [options.now]))!['released']);
  // A lease is ended by the same bound: what a crashed instance leased comes back with its holds.
  if (accounts.length > 0) await sql.rows(endLeases(ABANDONED), [options.now]);
  return released;
}
