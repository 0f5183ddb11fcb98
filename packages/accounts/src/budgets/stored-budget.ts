import { budgetPeriodStart, type BudgetPeriod } from './budget';

/** A budget as a store keeps it: the spending counter of the period it last charged in. */
export type StoredBudget = {
  period: BudgetPeriod;
  limitMicros: number;
  spentMicros: number;
  periodStart: number;
};

/** What the budget has charged in the period holding `now`: nothing once its stored period is over. */
export function spentInPeriod(budget: StoredBudget, now: number): number {
  return budget.periodStart === budgetPeriodStart(budget.period, now) ? budget.spentMicros : 0;
}

/** The counter after charging `chargedMicros` at `now`, starting the new period's count when one has begun. */
export function chargeBudget(budget: StoredBudget, chargedMicros: number, now: number): Pick<StoredBudget, 'spentMicros' | 'periodStart'> {
  return { spentMicros: spentInPeriod(budget, now) + chargedMicros, periodStart: budgetPeriodStart(budget.period, now) };
}
