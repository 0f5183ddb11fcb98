import { lockAccounts } from './account-statements';
import type { SqlSession } from './sql-session';

/**
 * Takes (or grows) this owner's lease of an account in one statement. The slice is the account's
 * available money (balance less every hold and lease) divided by twice the number of live
 * instances, at most `$3`; the lease grows by the larger of the slice and what the hold asking for
 * it lacks (`$2`). Nothing is taken when the slice is under `$4` (the hold itself: money that short
 * goes to per-request holds) or the account has budgets. The conditional UPDATE locks the account
 * row and re-checks `balance - reserved >= amount` on the row as any other transaction left it (as
 * `RESERVE` does), so leases and holds together never exceed the balance. Returns what was taken.
 */
const TAKE_LEASE = `
  WITH owners AS (
    SELECT GREATEST(count(*), 1) AS live FROM hold_owners
  ), sized AS (
    SELECT accounts.id, LEAST($3::bigint, (balance_micros - reserved_micros) / (2 * owners.live)) AS slice
    FROM accounts, owners WHERE accounts.id = $1 AND NOT budgeted
  ), taken AS (
    UPDATE accounts SET reserved_micros = reserved_micros + GREATEST($2::bigint, sized.slice)
    FROM sized
    WHERE accounts.id = sized.id AND sized.slice >= $4 AND NOT budgeted
      AND balance_micros - reserved_micros >= GREATEST($2::bigint, sized.slice)
    RETURNING accounts.id, GREATEST($2::bigint, sized.slice) AS amount
  )
  INSERT INTO balance_leases (account_id, owner_id, amount_micros, expires_at)
  SELECT id, $5, amount, $6 FROM taken
  ON CONFLICT (account_id, owner_id) DO UPDATE
    SET amount_micros = balance_leases.amount_micros + EXCLUDED.amount_micros, expires_at = EXCLUDED.expires_at
  RETURNING (SELECT amount FROM taken) AS taken`;

/** Gives `$3` of this owner's lease back to the account, if the lease still holds that much. */
const SHRINK_LEASE = `
  WITH shrunk AS (
    UPDATE balance_leases SET amount_micros = amount_micros - $3
    WHERE account_id = $1 AND owner_id = $2 AND amount_micros >= $3
    RETURNING account_id
  )
  UPDATE accounts SET reserved_micros = reserved_micros - $3 FROM shrunk WHERE accounts.id = shrunk.account_id`;

/** Ends the leases `where` selects and gives their money back to their accounts (whose rows the caller locked first). */
export const endLeases = (where: string) => `
  WITH ended AS (
    DELETE FROM balance_leases WHERE ${where} RETURNING account_id, amount_micros
  ), totals AS (
    SELECT account_id, SUM(amount_micros) AS amount FROM ended GROUP BY account_id
  )
  UPDATE accounts SET reserved_micros = reserved_micros - totals.amount FROM totals WHERE accounts.id = totals.account_id`;

/** Takes or grows a lease (see `TAKE_LEASE`) and returns the amount taken, 0 when none was. */
export async function takeLease(
  sql: SqlSession,
  lease: { accountId: string; ownerId: string; lackingMicros: number; sliceMicros: number; minimumMicros: number; expiresAt: number },
): Promise<number> {
  const row = await sql.row(TAKE_LEASE, [
    lease.accountId, lease.lackingMicros, lease.sliceMicros, lease.minimumMicros, lease.ownerId, lease.expiresAt,
  ]);
  return Number(row?.['taken'] ?? 0);
}

/** Gives `amountMicros` of a lease back, in a transaction that locks the account first (the order every hold change follows). */
export async function shrinkLease(sql: SqlSession, lease: { accountId: string; ownerId: string; amountMicros: number }): Promise<boolean> {
  await lockAccounts(sql, [lease.accountId]);
  return (await sql.count(SHRINK_LEASE, [lease.accountId, lease.ownerId, lease.amountMicros])) > 0;
}

/** Ends the owner's leases of `accountIds` (all of its leases without them), the accounts locked first. */
export async function endOwnLeases(sql: SqlSession, ownerId: string, accountIds?: readonly string[]): Promise<void> {
  const accounts = accountIds ?? (await sql.rows('SELECT account_id FROM balance_leases WHERE owner_id = $1', [ownerId])).map(row => String(row['account_id']));
  if (accounts.length === 0) return;
  await lockAccounts(sql, accounts);
  await sql.rows(endLeases('owner_id = $1 AND account_id = ANY($2::text[])'), [ownerId, [...accounts]]);
}

/**
 * Extends the expiry of every lease the owner holds, locking the rows in account order (the order a
 * ledger batch locks them in), so a renewal and a batch never wait for each other in a cycle.
 */
export async function renewLeases(sql: SqlSession, ownerId: string, expiresAt: number): Promise<void> {
  await sql.rows(
    `UPDATE balance_leases SET expires_at = $2
     WHERE owner_id = $1 AND account_id IN (SELECT account_id FROM balance_leases WHERE owner_id = $1 ORDER BY account_id FOR UPDATE)`,
    [ownerId, expiresAt],
  );
}
