import { chargeOnSettle, type Reservation, type Settled } from '@signalbox/accounts';
import type { Statements } from './prepare-statements';

type HeldRow = { account_id: string; amount_micros: number };

/**
 * Releases a hold and charges `costMicros`, capped at the stored hold and at the balance; to be
 * run inside a transaction (`settle` runs it alone, `commitUsage` beside the request's row).
 * Deleting the hold first and acting only if it was there makes a second settlement charge nothing.
 */
export function settleHold(statements: Statements, reservation: Reservation, costMicros: number): Settled | undefined {
  // The stored amount and account, not the caller's copy, decide what is released and charged.
  const held = statements.deleteReservation.get(reservation.id) as HeldRow | undefined;
  if (!held) return undefined;
  const balance = Number(statements.selectAccount.get(held.account_id)?.['balance_micros'] ?? 0);
  const settled = chargeOnSettle(costMicros, held.amount_micros, balance);
  statements.releaseAndCharge.run(held.amount_micros, settled.chargedMicros, held.account_id);
  return settled;
}
