import type { DatabaseSync } from 'node:sqlite';
import { BUDGET_COLUMNS } from '@signalbox/accounts/sql';

/** The start of the period a budget row counts in, given the day's (`?1`) and the month's (`?2`). */
const PERIOD_START = "CASE period WHEN 'day' THEN ?1 ELSE ?2 END";

/** The statements of budgets: what a hold checks, what a charge counts, what the admin API sets. */
export function prepareBudgetStatements(database: DatabaseSync) {
  const prepare = (sql: string) => database.prepare(sql);
  return {
    /** The budgets a hold of key `?2` on account `?1` must fit: the account's own and the key's. */
    selectBudgetsFor: prepare(`SELECT ${BUDGET_COLUMNS} FROM budgets b WHERE b.account_id = ?1 AND b.key_id IN ('', ?2)`),
    selectBudgetsOfAccount: prepare(`SELECT ${BUDGET_COLUMNS} FROM budgets b WHERE b.account_id = ? ORDER BY b.key_id, b.period`),
    /** Counts `?3` charged against account `?4`'s budgets and key `?5`'s, starting a new period's count where one began. */
    chargeBudgets: prepare(
      `UPDATE budgets SET
         spent_micros = CASE WHEN period_start = ${PERIOD_START} THEN spent_micros + ?3 ELSE ?3 END,
         period_start = ${PERIOD_START}
       WHERE account_id = ?4 AND key_id IN ('', ?5)`,
    ),
    upsertBudget: prepare(
      `INSERT INTO budgets (account_id, key_id, period, limit_micros, spent_micros, period_start) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, key_id, period) DO UPDATE SET limit_micros = excluded.limit_micros`,
    ),
    deleteBudget: prepare('DELETE FROM budgets WHERE account_id = ? AND key_id = ? AND period = ?'),
    markBudgeted: prepare('UPDATE accounts SET budgeted = EXISTS (SELECT 1 FROM budgets WHERE account_id = ?1) WHERE id = ?1'),
    /** What the ledger charged the account (or, with a key, that key) since `?2`: a new budget's opening count. */
    selectSpentSince: prepare(
      "SELECT coalesce(sum(cost_micros), 0) AS spent FROM usage WHERE account_id = ?1 AND time >= ?2 AND (?3 = '' OR key_id = ?3)",
    ),
    selectKeyAccount: prepare('SELECT account_id FROM api_keys WHERE id = ?'),
  };
}
