import type { DatabaseSync } from 'node:sqlite';
import { prepareBudgetStatements } from './prepare-budget-statements';
import { prepareResponseStatements } from './prepare-response-statements';
import { prepareUsageStatements } from './prepare-usage-statements';

const ACCOUNT_COLUMNS = 'id, name, balance_micros, reserved_micros, subscription, group_name, key_limit_ceiling, created_at';
/** In the order of `ApiKeyMutableColumns`, which both key writes bind. */
const MUTABLE_KEY_COLUMNS = 'name, status, expires_at, group_name, allowed_models, limits, disabled_by';
const KEY_COLUMNS = `id, account_id, prefix, created_at, ${MUTABLE_KEY_COLUMNS}`;

/**
 * Every statement the store runs, prepared once when it opens (SQLite then only binds and steps).
 * Lists come back in insertion order (`rowid`), as the memory store's maps do.
 */
export function prepareStatements(database: DatabaseSync) {
  const prepare = (sql: string) => database.prepare(sql);
  return {
    insertAccount: prepare(
      `INSERT INTO accounts (${ACCOUNT_COLUMNS}) VALUES (?, ?, ?, 0, ?, ?, ?, ?) RETURNING ${ACCOUNT_COLUMNS}`,
    ),
    /** With `budgeted`: the request path reads it to know whether a hold must look for budgets. */
    selectAccount: prepare(`SELECT ${ACCOUNT_COLUMNS}, budgeted FROM accounts WHERE id = ?`),
    selectAccounts: prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY rowid`),
    updateAccount: prepare(
      `UPDATE accounts SET name = ?, subscription = ?, group_name = ?, key_limit_ceiling = ? WHERE id = ? RETURNING ${ACCOUNT_COLUMNS}`,
    ),
    adjustBalance: prepare(
      `UPDATE accounts SET balance_micros = balance_micros + ? WHERE id = ? RETURNING ${ACCOUNT_COLUMNS}`,
    ),

    insertKey: prepare(
      `INSERT INTO api_keys (id, account_id, prefix, digest, created_at, ${MUTABLE_KEY_COLUMNS})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${KEY_COLUMNS}`,
    ),
    selectKey: prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`),
    selectKeysByPrefix: prepare(`SELECT ${KEY_COLUMNS}, digest FROM api_keys WHERE prefix = ?`),
    selectKeys: prepare(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY rowid`),
    selectKeysOfAccount: prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY rowid`),
    updateKey: prepare(
      `UPDATE api_keys SET name = ?, status = ?, expires_at = ?, group_name = ?, allowed_models = ?, limits = ?, disabled_by = ?
       WHERE id = ? RETURNING ${KEY_COLUMNS}`,
    ),

    /**
     * The balance's check-and-hold in one statement: it changes a row only if the money is there,
     * and says whether the account has budgets to check as well.
     */
    holdFunds: prepare(
      `UPDATE accounts SET reserved_micros = reserved_micros + ?1
       WHERE id = ?2 AND balance_micros - reserved_micros >= ?1 RETURNING budgeted`,
    ),
    insertReservation: prepare(
      'INSERT INTO reservations (id, account_id, amount_micros, created_at, expires_at, owner_id, key_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    /** Returns the row only to the first caller, which is what makes `settle` idempotent. */
    deleteReservation: prepare('DELETE FROM reservations WHERE id = ? RETURNING account_id, amount_micros, key_id'),
    totalHolds: prepare(
      'SELECT count(*) AS count, coalesce(sum(amount_micros), 0) AS amount_micros, min(expires_at) AS earliest_expires_at FROM reservations',
    ),
    releaseAndCharge: prepare(
      'UPDATE accounts SET reserved_micros = reserved_micros - ?, balance_micros = balance_micros - ? WHERE id = ?',
    ),

    ...prepareBudgetStatements(database),
    ...prepareResponseStatements(database),
    ...prepareUsageStatements(database),
  };
}

/** The prepared statements of one open store. */
export type Statements = ReturnType<typeof prepareStatements>;
