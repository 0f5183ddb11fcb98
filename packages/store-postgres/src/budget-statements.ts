import { budgetPeriodStart, budgetRoomMicros } from '@signalbox/accounts';
import { BUDGET_COLUMNS, toBudget } from '@signalbox/accounts/sql';
import type { SqlSession } from './sql-session';

/** The budgets a hold of key `$2` on account `$1` must fit: the account's own and the key's. */
export const SELECT_BUDGETS_FOR = `SELECT ${BUDGET_COLUMNS} FROM budgets b WHERE b.account_id = $1 AND b.key_id IN ('', $2)`;

/** Every budget of an account and of its keys. */
export const SELECT_BUDGETS_OF_ACCOUNT = `SELECT ${BUDGET_COLUMNS} FROM budgets b WHERE b.account_id = $1 ORDER BY b.key_id, b.period`;

const PERIOD_START = "CASE b.period WHEN 'day' THEN $4::bigint ELSE $5::bigint END";

/** Adds each owner's charges (`key_id` `''`: the account's own budgets) in one statement, starting a new period's count where one began. */
const CHARGE_BUDGETS = `
  UPDATE budgets b SET
    spent_micros = CASE WHEN b.period_start = ${PERIOD_START} THEN b.spent_micros + c.charged ELSE c.charged END,
    period_start = ${PERIOD_START}
  FROM UNNEST($1::text[], $2::text[], $3::bigint[]) AS c (account_id, key_id, charged)
  WHERE b.account_id = c.account_id AND b.key_id = c.key_id`;

/** Charges by account, then by key (`''` for a hold without one). */
export type BudgetCharges = Map<string, Map<string, number>>;

/** Adds a charge of one hold to `charges`. */
export function addBudgetCharge(charges: BudgetCharges, accountId: string, keyId: string | undefined, chargedMicros: number): void {
  if (chargedMicros <= 0) return;
  const byKey = charges.get(accountId) ?? new Map<string, number>();
  charges.set(accountId, byKey);
  byKey.set(keyId ?? '', (byKey.get(keyId ?? '') ?? 0) + chargedMicros);
}

/**
 * Counts the charges against the budgets of their accounts and keys, inside the caller's transaction
 * (which holds the accounts' locks): every charge against its account's own budgets, and a key's
 * charges against that key's.
 */
export async function chargeBudgets(sql: SqlSession, charges: BudgetCharges, at: number): Promise<void> {
  const owners = new Map<string, { accountId: string; keyId: string; charged: number }>();
  const add = (accountId: string, keyId: string, charged: number) => {
    const key = `${accountId}\u0000${keyId}`;
    const owner = owners.get(key) ?? { accountId, keyId, charged: 0 };
    owner.charged += charged;
    owners.set(key, owner);
  };
  for (const [accountId, byKey] of charges) {
    for (const [keyId, charged] of byKey) {
      add(accountId, '', charged);
      if (keyId !== '') add(accountId, keyId, charged);
    }
  }
  if (owners.size === 0) return;
  const rows = [...owners.values()];
  await sql.rows(CHARGE_BUDGETS, [
    rows.map(row => row.accountId),
    rows.map(row => row.keyId),
    rows.map(row => row.charged),
    budgetPeriodStart('day', at),
    budgetPeriodStart('month', at),
  ]);
}

/** Whether every budget of the account and of `keyId` has room for `amountMicros` more; run under the account's lock. */
export async function budgetsAllow(sql: SqlSession, accountId: string, keyId: string | undefined, amountMicros: number, at: number): Promise<boolean> {
  const rows = await sql.rows(SELECT_BUDGETS_FOR, [accountId, keyId ?? '']);
  return rows.every(row => budgetRoomMicros(toBudget(row, at)) >= amountMicros);
}
