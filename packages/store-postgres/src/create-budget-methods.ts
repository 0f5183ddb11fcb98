import { budgetPeriodStart, type AccountStore, type Budget } from '@signalbox/accounts';
import { toBudget } from '@signalbox/accounts/sql';
import { lockAccounts } from './account-statements';
import { SELECT_BUDGETS_OF_ACCOUNT } from './budget-statements';
import type { SqlSession } from './sql-session';
import type { StoreContext } from './store-context';

type BudgetMethods = Pick<AccountStore, 'setBudget' | 'listBudgets'>;

/** The channel every budget change is announced on (its account's id), delivered when the change commits: instances stop serving that account's holds from leases. */
export const BUDGETS_CHANNEL = 'signalbox_budgets';

const UPSERT_BUDGET = `
  INSERT INTO budgets (account_id, key_id, period, limit_micros, spent_micros, period_start)
  SELECT $1, $2, $3, $4, coalesce(sum(cost_micros), 0), $5 FROM usage
    WHERE account_id = $1 AND time >= $5 AND ($2 = '' OR key_id = $2)
  ON CONFLICT (account_id, key_id, period) DO UPDATE SET limit_micros = excluded.limit_micros`;

/**
 * Budgets on PostgreSQL. A change takes the account's lock (as a hold does), so it never lands
 * between a hold's check and its write, and sets the account's `budgeted` mark with it; a new
 * budget opens with what the ledger charged its owner in the current period. The change is
 * announced (`BUDGETS_CHANNEL`), so no instance goes on serving the account's holds from a lease.
 */
export function createBudgetMethods(context: StoreContext): BudgetMethods {
  const { transaction, now } = context;
  return {
    async setBudget(change) {
      const keyId = change.keyId ?? '';
      const at = now();
      const changed = await transaction(async sql => {
        if ((await lockAccounts(sql, [change.accountId])).length === 0) return false;
        if (keyId !== '' && (await sql.row('SELECT account_id FROM api_keys WHERE id = $1', [keyId]))?.['account_id'] !== change.accountId) return false;
        if (change.limitMicros === null) {
          await sql.rows('DELETE FROM budgets WHERE account_id = $1 AND key_id = $2 AND period = $3', [change.accountId, keyId, change.period]);
        } else {
          await sql.rows(UPSERT_BUDGET, [change.accountId, keyId, change.period, change.limitMicros, budgetPeriodStart(change.period, at)]);
        }
        await sql.rows('UPDATE accounts SET budgeted = EXISTS (SELECT 1 FROM budgets WHERE account_id = $1) WHERE id = $1', [change.accountId]);
        await sql.rows(`SELECT pg_notify('${BUDGETS_CHANNEL}', $1)`, [change.accountId]);
        return true;
      });
      if (!changed) return undefined;
      return (await readBudgets(context.sql, change.accountId, at)).filter(budget => (budget.keyId ?? '') === keyId);
    },
    async listBudgets(accountId) {
      return readBudgets(context.sql, accountId, now());
    },
  };
}

async function readBudgets(sql: SqlSession, accountId: string, at: number): Promise<Budget[]> {
  return (await sql.rows(SELECT_BUDGETS_OF_ACCOUNT, [accountId])).map(row => toBudget(row, at));
}
