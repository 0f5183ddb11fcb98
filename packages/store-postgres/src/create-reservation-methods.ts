import { createId } from '@switchyard/core';
import { DEFAULT_HOLD_LIFETIME_MS, type AccountStore, type Reservation } from '@switchyard/accounts';
import { beatHoldOwner } from './hold-owners';
import { releaseAbandonedHolds } from './release-abandoned-holds';
import { settleHold } from './settle-hold';
import type { StoreContext } from './store-context';

type ReservationMethods = Pick<AccountStore, 'reserve' | 'settle' | 'releaseExpiredHolds'>;

/**
 * Holds and charges. `reserve` is one conditional UPDATE: PostgreSQL locks the account row, and an
 * UPDATE that waited for that lock re-evaluates its WHERE against the row as the other transaction
 * left it, so no interleaving of instances can hold more than the available balance; the hold and
 * its `reservations` row (with its expiry and owner) commit together. `settle` deletes the row
 * first and acts only if it was still there, so settling twice does nothing; it charges at most
 * the stored hold and never more than the balance has.
 */
export function createReservationMethods(context: StoreContext, ownerTimeoutMs: number): ReservationMethods {
  const { transaction, ownerId, now } = context;
  return {
    async reserve(accountId, amountMicros, hold = {}) {
      const amount = Math.max(0, Math.ceil(amountMicros));
      const createdAt = now();
      const expiresAt = hold.expiresAt ?? createdAt + DEFAULT_HOLD_LIFETIME_MS;
      return transaction(async (sql): Promise<Reservation | undefined> => {
        const held = await sql.count(
          `UPDATE accounts SET reserved_micros = reserved_micros + $1
           WHERE id = $2 AND balance_micros - reserved_micros >= $1`,
          [amount, accountId],
        );
        if (held === 0) return undefined;
        const reservation = { id: createId('hold_'), accountId, amountMicros: amount, expiresAt, ownerId };
        await sql.rows(
          'INSERT INTO reservations (id, account_id, amount_micros, created_at, expires_at, owner_id) VALUES ($1, $2, $3, $4, $5, $6)',
          [reservation.id, accountId, amount, createdAt, expiresAt, ownerId],
        );
        return reservation;
      });
    },
    async settle(reservation, costMicros) {
      return transaction(sql => settleHold(sql, reservation, costMicros));
    },
    async releaseExpiredHolds(at) {
      // The heartbeat first: every sweep proves this instance alive before it judges the others.
      await beatHoldOwner(context.sql, ownerId, now());
      return transaction(sql => releaseAbandonedHolds(sql, { now: at, selfId: ownerId, ownerTimeoutMs }));
    },
  };
}
