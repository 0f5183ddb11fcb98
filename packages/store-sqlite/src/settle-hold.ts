import type { Reservation, Settled } from '@signalbox/accounts';
import { chargeOnSettle } from '@signalbox/accounts/sql';
import { chargeBudgets } from './create-budget-methods';
import type { Statements } from './prepare-statements';

type HeldRow = { account_id: string; amount_micros: number; key_id: string | null };

/**
 * Releases a hold and charges `costMicros`, capped at the stored hold and at the balance; to be
 * run inside a transaction (`settle` runs it alone, `commitUsage` beside the request's row).
 * Deleting the hold first and acting only if it was there makes a second settlement charge nothing.
 * The charge counts against the budgets of the hold's account and key, in the period holding `at`.
 */
export function settleHold(statements: Statements, reservation: Pick<Reservation, 'id'>, costMicros: number, at: number): Settled | undefined {
  // The stored amount and account, not the caller's copy, decide what is released and charged.
  const held = statements.deleteReservation.get(reservation.id) as HeldRow | undefined;
  if (!held) return undefined;
  const account = statements.selectAccount.get(held.account_id);
  const settled = chargeOnSettle(costMicros, held.amount_micros, Number(account?.['balance_micros'] ?? 0));
  statements.releaseAndCharge.run(held.amount_micros, settled.chargedMicros, held.account_id);
  if (Number(account?.['budgeted']) === 1) chargeBudgets(statements, held.account_id, held.key_id ?? undefined, settled.chargedMicros, at);
  return settled;
}
