import { chargeOnSettle, type Reservation, type Settled } from '@signalbox/accounts';
import { lockAccounts } from './account-statements';
import { addBudgetCharge, chargeBudgets, type BudgetCharges } from './budget-statements';
import type { SqlSession } from './sql-session';

/**
 * Releases a hold and charges `costMicros`, capped at the stored hold and at the balance; to be
 * run inside a transaction (`settle` runs it alone, `commitUsage` beside the request's row). The
 * account row is locked first (the lock order every hold change follows), then `DELETE … RETURNING`
 * hands the hold to one transaction only: another one deleting it at the same time waits, then
 * finds nothing, so a second settlement, on any instance, charges nothing. The charge counts against
 * the budgets of the hold's account and key, in the period holding `at`.
 */
export async function settleHold(sql: SqlSession, reservation: Reservation, costMicros: number, at: number): Promise<Settled | undefined> {
  const [locked] = await lockAccounts(sql, [reservation.accountId]);
  // The stored amount and account, not the caller's copy, decide what is released and charged.
  const held = await sql.row('DELETE FROM reservations WHERE id = $1 RETURNING account_id, amount_micros, key_id', [reservation.id]);
  if (!held) return undefined;
  const accountId = String(held['account_id']);
  const account = accountId === locked?.['id'] ? locked : (await lockAccounts(sql, [accountId]))[0];
  const amount = Number(held['amount_micros']);
  const settled = chargeOnSettle(costMicros, amount, Number(account?.['balance_micros'] ?? 0));
  await sql.rows(
    'UPDATE accounts SET reserved_micros = reserved_micros - $1, balance_micros = balance_micros - $2 WHERE id = $3',
    [amount, settled.chargedMicros, accountId],
  );
  if (account?.['budgeted'] === true) {
    const charges: BudgetCharges = new Map();
    addBudgetCharge(charges, accountId, (held['key_id'] as string | null) ?? undefined, settled.chargedMicros);
    await chargeBudgets(sql, charges, at);
  }
  return settled;
}
