import { createId } from '@switchyard/core';
import { DEFAULT_HOLD_LIFETIME_MS, type AccountStore, type Reservation } from '@switchyard/accounts';
import { releaseAbandonedHolds } from './release-abandoned-holds';
import { settleHold } from './settle-hold';
import type { StoreContext } from './store-context';

type ReservationMethods = Pick<AccountStore, 'reserve' | 'settle' | 'releaseExpiredHolds'>;

/**
 * Holds and charges. `reserve` is one conditional UPDATE (check and hold in a single statement under
 * SQLite's one-writer lock), so no interleaving of connections or processes can hold more than the
 * available balance; the hold and its `reservations` row (with its expiry and owner) commit
 * together. `settle` deletes the row first and acts only if it was still there, so settling twice
 * does nothing; it charges at most the stored hold and never more than the balance has.
 */
export function createReservationMethods(context: StoreContext): ReservationMethods {
  const { statements, transaction, ownerId, now } = context;
  return {
    async reserve(accountId, amountMicros, hold = {}) {
      const amount = Math.max(0, Math.ceil(amountMicros));
      const createdAt = now();
      const expiresAt = hold.expiresAt ?? createdAt + DEFAULT_HOLD_LIFETIME_MS;
      return transaction((): Reservation | undefined => {
        if (Number(statements.holdFunds.run(amount, accountId).changes) === 0) return undefined;
        const reservation = { id: createId('hold_'), accountId, amountMicros: amount, expiresAt, ownerId };
        statements.insertReservation.run(reservation.id, accountId, amount, createdAt, expiresAt, ownerId);
        return reservation;
      });
    },
    async settle(reservation, costMicros) {
      return transaction(() => settleHold(statements, reservation, costMicros));
    },
    async releaseExpiredHolds(at) {
      return releaseAbandonedHolds(context.database, transaction, at);
    },
  };
}
