import type { Reservation } from '../store/account-store';
import { budgetPeriodStart, budgetRoomMicros, type Budget, type BudgetChange } from './budget';
import { chargeBudget, spentInPeriod, type StoredBudget } from './stored-budget';

/** The memory account store's budgets: counters by owner and period, holds read from the store's own. */
export type MemoryBudgets = {
  /** Whether every budget of the account and of `keyId` still has room for `amountMicros` more. */
  fits(accountId: string, keyId: string | undefined, amountMicros: number, now: number): boolean;
  /** Counts a settled charge against the account's budgets and its key's. */
  charge(accountId: string, keyId: string | undefined, chargedMicros: number, now: number): void;
  set(change: BudgetChange, openingSpentMicros: number, now: number): void;
  /** The account's budgets and its keys', or only the owner's own when `keyId` is given (`''`: the account's). */
  list(accountId: string, now: number, keyId?: string): Budget[];
};

type Entry = StoredBudget & { accountId: string; keyId: string };

/** Budgets kept in process memory, beside the holds they are checked against (`holds`, live). */
export function createMemoryBudgets(holds: ReadonlyMap<string, Reservation>): MemoryBudgets {
  const budgets = new Map<string, Entry>();
  const keyOf = (accountId: string, keyId: string, period: string) => `${accountId}\u0000${keyId}\u0000${period}`;
  const owned = (accountId: string, keyId: string | undefined) =>
    [...budgets.values()].filter(budget => budget.accountId === accountId && (budget.keyId === '' || budget.keyId === keyId));
  const heldFor = (budget: Entry) => {
    let held = 0;
    for (const hold of holds.values()) {
      if (hold.accountId === budget.accountId && (budget.keyId === '' || hold.keyId === budget.keyId)) held += hold.amountMicros;
    }
    return held;
  };
  const present = (budget: Entry, now: number): Budget => ({
    accountId: budget.accountId,
    ...(budget.keyId !== '' && { keyId: budget.keyId }),
    period: budget.period,
    limitMicros: budget.limitMicros,
    spentMicros: spentInPeriod(budget, now),
    heldMicros: heldFor(budget),
    periodStart: budgetPeriodStart(budget.period, now),
  });
  return {
    fits(accountId, keyId, amountMicros, now) {
      return owned(accountId, keyId).every(budget => budgetRoomMicros(present(budget, now)) >= amountMicros);
    },
    charge(accountId, keyId, chargedMicros, now) {
      for (const budget of owned(accountId, keyId)) Object.assign(budget, chargeBudget(budget, chargedMicros, now));
    },
    set(change, openingSpentMicros, now) {
      const keyId = change.keyId ?? '';
      const key = keyOf(change.accountId, keyId, change.period);
      const existing = budgets.get(key);
      if (change.limitMicros === null) budgets.delete(key);
      else if (existing) existing.limitMicros = change.limitMicros;
      else {
        const periodStart = budgetPeriodStart(change.period, now);
        budgets.set(key, { accountId: change.accountId, keyId, period: change.period, limitMicros: change.limitMicros, spentMicros: openingSpentMicros, periodStart });
      }
    },
    list(accountId, now, keyId) {
      return [...budgets.values()]
        .filter(budget => budget.accountId === accountId && (keyId === undefined || budget.keyId === keyId))
        .map(budget => present(budget, now));
    },
  };
}
