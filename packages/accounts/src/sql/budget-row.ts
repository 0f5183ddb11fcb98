import { budgetPeriodStart, type Budget, type BudgetPeriod } from '../budgets/budget';
import { spentInPeriod } from '../budgets/stored-budget';

/**
 * The budget columns both SQL stores read, with what the holds in flight hold against each (the
 * account's own budget: every hold of the account; a key's: that key's holds).
 */
export const BUDGET_COLUMNS = `b.account_id, b.key_id, b.period, b.limit_micros, b.spent_micros, b.period_start,
  (SELECT coalesce(sum(r.amount_micros), 0) FROM reservations r
    WHERE r.account_id = b.account_id AND (b.key_id = '' OR r.key_id = b.key_id)) AS held_micros`;

/** A `budgets` row as the SQL stores read it; `key_id` is `''` for the account's own budget. */
export type BudgetRow = {
  account_id: string;
  key_id: string;
  period: BudgetPeriod;
  limit_micros: number;
  spent_micros: number;
  period_start: number;
  held_micros: number;
};

/**
 * A `Budget` at `now` from a row; `extraHeldMicros` adds holds the row cannot see (a single
 * gateway's, kept in its memory).
 */
export function toBudget(row: Record<string, unknown>, now: number, extraHeldMicros = 0): Budget {
  const budget = row as BudgetRow;
  const period = budget.period;
  return {
    accountId: budget.account_id,
    ...(budget.key_id !== '' && { keyId: budget.key_id }),
    period,
    limitMicros: Number(budget.limit_micros),
    spentMicros: spentInPeriod({ period, limitMicros: 0, spentMicros: Number(budget.spent_micros), periodStart: Number(budget.period_start) }, now),
    heldMicros: Number(budget.held_micros) + extraHeldMicros,
    periodStart: budgetPeriodStart(period, now),
  };
}
