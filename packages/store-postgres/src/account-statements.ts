import type { Row, SqlSession } from './sql-session';

/** The `accounts` columns every read returns, in `AccountRow` shape. */
export const ACCOUNT_COLUMNS = 'id, name, balance_micros, reserved_micros, subscription, group_name, key_limit_ceiling, created_at';

/** One account by id. */
export const SELECT_ACCOUNT = `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`;

/**
 * Locks the accounts' rows (`FOR UPDATE`) in id order until the transaction ends. Every transaction
 * that changes holds takes its account locks before it touches a `reservations` row, and in the
 * same order, so two instances settling, committing and sweeping at once wait for each other
 * instead of deadlocking (https://www.postgresql.org/docs/current/explicit-locking.html#LOCKING-DEADLOCKS).
 * Each row says whether the account has budgets (`budgeted`), which a charge then counts against.
 */
export async function lockAccounts(sql: SqlSession, accountIds: readonly string[]): Promise<Row[]> {
  if (accountIds.length === 0) return [];
  return sql.rows('SELECT id, balance_micros, budgeted FROM accounts WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE', [
    [...new Set(accountIds)],
  ]);
}
