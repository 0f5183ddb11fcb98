import { budgetPeriodEnd, type Budget } from '../budgets/budget';

/** A budget as the admin API shows it: money in units and micro-units, its period in ISO 8601. */
export function presentBudget(budget: Budget) {
  return {
    accountId: budget.accountId,
    keyId: budget.keyId ?? null,
    period: budget.period,
    limit: budget.limitMicros / 1_000_000,
    limitMicros: budget.limitMicros,
    spent: budget.spentMicros / 1_000_000,
    spentMicros: budget.spentMicros,
    heldMicros: budget.heldMicros,
    periodStart: new Date(budget.periodStart).toISOString(),
    renewsAt: new Date(budgetPeriodEnd(budget.period, budget.periodStart)).toISOString(),
  };
}

/** The presented budgets of one owner: the account's own (`keyId` undefined) or one key's. */
export function presentBudgetsOf(budgets: readonly Budget[], keyId: string | undefined) {
  return budgets.filter(budget => budget.keyId === keyId).map(presentBudget);
}
