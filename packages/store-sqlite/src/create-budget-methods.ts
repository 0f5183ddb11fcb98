import type { AccountStore, Budget } from '@signalbox/accounts';
import { budgetPeriodStart, budgetRoomMicros, toBudget } from '@signalbox/accounts/sql';
import type { Statements } from './prepare-statements';
import type { StoreContext } from './store-context';

type BudgetMethods = Pick<AccountStore, 'setBudget' | 'listBudgets'>;

/**
 * Budgets on SQLite. A change and the account's `budgeted` mark are written in one transaction; a
 * new budget opens with what the ledger charged its owner in the current period.
 */
export function createBudgetMethods(context: StoreContext): BudgetMethods {
  const { statements, transaction, now, accounts } = context;
  return {
    async setBudget(change) {
      const keyId = change.keyId ?? '';
      const at = now();
      const changed = transaction(() => {
        if (!statements.selectAccount.get(change.accountId)) return false;
        if (keyId !== '' && statements.selectKeyAccount.get(keyId)?.['account_id'] !== change.accountId) return false;
        if (change.limitMicros === null) statements.deleteBudget.run(change.accountId, keyId, change.period);
        else {
          const from = budgetPeriodStart(change.period, at);
          const spent = Number(statements.selectSpentSince.get(change.accountId, from, keyId)?.['spent'] ?? 0);
          statements.upsertBudget.run(change.accountId, keyId, change.period, change.limitMicros, spent, from);
        }
        statements.markBudgeted.run(change.accountId);
        return true;
      });
      accounts.forget(change.accountId);
      if (!changed) return undefined;
      return readBudgets(context, change.accountId, at).filter(budget => (budget.keyId ?? '') === keyId);
    },
    async listBudgets(accountId) {
      return readBudgets(context, accountId, now());
    },
  };
}

function readBudgets(context: StoreContext, accountId: string, at: number): Budget[] {
  return context.statements.selectBudgetsOfAccount
    .all(accountId)
    .map(row => toBudget(row, at, memoryHeld(context, accountId, String(row['key_id']))));
}

/** A single gateway's holds against a budget of `keyId` (`''`: the account's own), which no row shows. */
function memoryHeld(context: StoreContext, accountId: string, keyId: string): number {
  if (!context.holds) return 0;
  return keyId === '' ? context.holds.heldFor(accountId) : context.holds.heldForKey(keyId);
}

/**
 * Whether every budget of the account and of `keyId` has room for `amountMicros` more; run under
 * the write lock (file holds) or between two awaits (memory holds), so nothing holds in between.
 */
export function budgetsAllow(context: StoreContext, accountId: string, keyId: string | undefined, amountMicros: number): boolean {
  const at = context.now();
  return context.statements.selectBudgetsFor
    .all(accountId, keyId ?? '')
    .every(row => budgetRoomMicros(toBudget(row, at, memoryHeld(context, accountId, String(row['key_id'])))) >= amountMicros);
}

/** Counts a charge against the account's budgets and its key's (the caller knows the account has some). */
export function chargeBudgets(statements: Statements, accountId: string, keyId: string | undefined, chargedMicros: number, at: number): void {
  if (chargedMicros <= 0) return;
  statements.chargeBudgets.run(budgetPeriodStart('day', at), budgetPeriodStart('month', at), chargedMicros, accountId, keyId ?? '');
}
