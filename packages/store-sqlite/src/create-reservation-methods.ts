import { createId } from '@signalbox/core';
import { DEFAULT_HOLD_LIFETIME_MS, type AccountStore, type Reservation } from '@signalbox/accounts';
import { toHoldTotals } from '@signalbox/accounts/sql';
import { budgetsAllow } from './create-budget-methods';
import { releaseAbandonedHolds } from './release-abandoned-holds';
import { settleInTransaction } from './settle-in-transaction';
import type { StoreContext } from './store-context';

/** Thrown inside a hold's transaction to roll it back when a budget refuses it. */
const OVER_BUDGET = Symbol('over budget');

type ReservationMethods = Pick<AccountStore, 'reserve' | 'settle' | 'releaseExpiredHolds' | 'holdTotals'>;

/**
 * Holds and charges. With holds in the file (gateways sharing it), `reserve` is one conditional
 * UPDATE (check and hold in a single statement under SQLite's one-writer lock), so no interleaving of
 * connections or processes can hold more than the available balance; the hold and its
 * `reservations` row (with its expiry and owner) commit together. With holds in memory (a single
 * gateway), `reserve` checks `balance - reserved - held here` and records the hold in memory, which
 * is atomic because the process runs one call at a time; nothing is written. Either way, an account
 * marked `budgeted` has its budgets and its key's checked too (charges in the period plus holds plus
 * this one within each limit), in the same transaction or the same synchronous turn. `settle` charges at
 * most the hold and never more than the balance has, and settling twice does nothing.
 */
export function createReservationMethods(context: StoreContext): ReservationMethods {
  const { statements, transaction, ownerId, now, holds, accounts } = context;
  return {
    async reserve(accountId, amountMicros, hold = {}) {
      const amount = Math.max(0, Math.ceil(amountMicros));
      const createdAt = now();
      const reservation: Reservation = {
        id: createId('hold_'),
        accountId,
        amountMicros: amount,
        expiresAt: hold.expiresAt ?? createdAt + DEFAULT_HOLD_LIFETIME_MS,
        ownerId,
        ...(hold.keyId !== undefined && { keyId: hold.keyId }),
      };
      if (holds) {
        const row = accounts.read(accountId);
        if (!row) return undefined;
        const available =
          Number(row['balance_micros']) - Number(row['reserved_micros']) - holds.heldFor(accountId);
        if (available < amount) return undefined;
        if (Number(row['budgeted']) === 1 && !budgetsAllow(context, accountId, hold.keyId, amount)) return undefined;
        holds.add(reservation);
        return { ...reservation };
      }
      try {
        return transaction((): Reservation | undefined => {
          const held = statements.holdFunds.get(amount, accountId);
          if (!held) return undefined;
          // Over a budget: undo the balance's hold with the rest of the transaction.
          if (Number(held['budgeted']) === 1 && !budgetsAllow(context, accountId, hold.keyId, amount)) throw OVER_BUDGET;
          const { id, expiresAt } = reservation;
          statements.insertReservation.run(id, accountId, amount, createdAt, expiresAt, ownerId, hold.keyId ?? null);
          return reservation;
        });
      } catch (error) {
        if (error === OVER_BUDGET) return undefined;
        throw error;
      }
    },
    async settle(reservation, costMicros) {
      return settleInTransaction(context, settle => settle(reservation, costMicros));
    },
    async releaseExpiredHolds(at) {
      const released =
        (holds?.removeExpired(at) ?? 0) + releaseAbandonedHolds(context.database, transaction, at);
      accounts.clear();
      return released;
    },
    async holdTotals() {
      // A single gateway keeps its holds in memory and writes no rows; gateways sharing the file keep rows.
      if (holds) return holds.totals();
      return toHoldTotals(statements.totalHolds.get()!);
    },
  };
}
