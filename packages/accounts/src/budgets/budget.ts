/** The calendar periods a budget may span, in UTC: a day from 00:00, a month from its 1st. */
export const BUDGET_PERIODS = ['day', 'month'] as const;

export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

/**
 * A spending limit per UTC calendar period, on top of the balance: the account's own (every key
 * together) when `keyId` is absent, else one key's. Money is integer micro-units.
 */
export type Budget = {
  accountId: string;
  keyId?: string;
  period: BudgetPeriod;
  limitMicros: number;
  /** Charged in the current period (0 once a new period has begun). */
  spentMicros: number;
  /** Held by requests in flight that count against it. */
  heldMicros: number;
  /** Unix milliseconds: when the current period began. */
  periodStart: number;
};

/** What `setBudget` is told: whose budget, which period, and the limit (`null` removes it). */
export type BudgetChange = {
  accountId: string;
  keyId?: string;
  period: BudgetPeriod;
  limitMicros: number | null;
};

/** Unix milliseconds when the UTC period holding `now` began. */
export function budgetPeriodStart(period: BudgetPeriod, now: number): number {
  const date = new Date(now);
  return period === 'day'
    ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate())
    : Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/** Unix milliseconds when the UTC period holding `now` ends (the next one begins). */
export function budgetPeriodEnd(period: BudgetPeriod, now: number): number {
  const date = new Date(now);
  return period === 'day'
    ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1)
    : Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** What a budget still allows in its period: the limit less what was charged and what is held. */
export function budgetRoomMicros(budget: Pick<Budget, 'limitMicros' | 'spentMicros' | 'heldMicros'>): number {
  return budget.limitMicros - budget.spentMicros - budget.heldMicros;
}

/**
 * The budget that leaves the least room among those that limit a request of `keyId` (the
 * account's own and the key's), or `undefined` when none does.
 */
export function tightestBudget(budgets: readonly Budget[], keyId: string | undefined): Budget | undefined {
  let tightest: Budget | undefined;
  for (const budget of budgets) {
    if (budget.keyId !== undefined && budget.keyId !== keyId) continue;
    if (!tightest || budgetRoomMicros(budget) < budgetRoomMicros(tightest)) tightest = budget;
  }
  return tightest;
}
