import { createId } from '@switchyard/core';
import type { AccountStore, Reservation } from '@switchyard/accounts';
import type { StoreContext } from './store-context';

type HeldRow = { account_id: string; amount_micros: number };
type ReservationMethods = Pick<AccountStore, 'reserve' | 'settle'>;

/**
 * Holds and charges. `reserve` is one conditional UPDATE (check and hold in a single statement under
 * SQLite's one-writer lock), so no interleaving of connections or processes can hold more than the
 * available balance; the hold and its `reservations` row commit together. `settle` deletes the row
 * first and acts only if it was still there, so settling twice does nothing.
 */
export function createReservationMethods({ statements, transaction }: StoreContext): ReservationMethods {
  return {
    async reserve(accountId, amountMicros) {
      const amount = Math.max(0, Math.ceil(amountMicros));
      return transaction((): Reservation | undefined => {
        if (Number(statements.holdFunds.run(amount, accountId).changes) === 0) return undefined;
        const reservation = { id: createId('hold_'), accountId, amountMicros: amount };
        statements.insertReservation.run(reservation.id, accountId, amount, Date.now());
        return reservation;
      });
    },
    async settle(reservation, costMicros) {
      const cost = Math.max(0, Math.round(costMicros));
      transaction(() => {
        // The stored amount and account, not the caller's copy, decide what is released.
        const held = statements.deleteReservation.get(reservation.id) as HeldRow | undefined;
        if (!held) return;
        statements.releaseAndCharge.run(held.amount_micros, cost, held.account_id);
      });
    },
  };
}
