import type { HoldTotals, Reservation } from '@signalbox/accounts';
import { totalHolds } from '@signalbox/accounts/sql';

/**
 * The holds of requests in flight, in this process's memory: what a single gateway on the file keeps
 * instead of a `reservations` row per request. A hold lives from `reserve` until the transaction that
 * charges it (its request's ledger row, or `settle`) has committed, so the money stays held while the
 * charge waits for its batch. Nothing of it is written: a crash takes the holds with it, which
 * releases them, and nothing was charged for them.
 */
export type MemoryHolds = {
  /** What the account's holds in this process add up to. */
  heldFor(accountId: string): number;
  /** What the holds of one key's requests in this process add up to. */
  heldForKey(keyId: string): number;
  add(reservation: Reservation): void;
  get(id: string): Reservation | undefined;
  /** Lets the holds go (charged by a committed transaction, or released). */
  remove(reservations: Iterable<Reservation>): void;
  /** Lets go, without charge, every hold whose expiry is at or before `at`; returns how many. */
  removeExpired(at: number): number;
  /** How many holds there are and what they add up to. */
  totals(): HoldTotals;
};

export function createMemoryHolds(): MemoryHolds {
  const holds = new Map<string, Reservation>();
  const heldByAccount = new Map<string, number>();
  const heldByKey = new Map<string, number>();
  const count = (totals: Map<string, number>, id: string | undefined, delta: number) => {
    if (id === undefined) return;
    const total = (totals.get(id) ?? 0) + delta;
    if (total > 0) totals.set(id, total);
    else totals.delete(id);
  };
  const remove = (reservation: Reservation) => {
    if (!holds.delete(reservation.id)) return;
    count(heldByAccount, reservation.accountId, -reservation.amountMicros);
    count(heldByKey, reservation.keyId, -reservation.amountMicros);
  };
  return {
    heldFor(accountId) {
      return heldByAccount.get(accountId) ?? 0;
    },
    heldForKey(keyId) {
      return heldByKey.get(keyId) ?? 0;
    },
    add(reservation) {
      holds.set(reservation.id, reservation);
      count(heldByAccount, reservation.accountId, reservation.amountMicros);
      count(heldByKey, reservation.keyId, reservation.amountMicros);
    },
    get(id) {
      return holds.get(id);
    },
    remove(reservations) {
      for (const reservation of reservations) remove(reservation);
    },
    removeExpired(at) {
      const expired = [...holds.values()].filter(reservation => reservation.expiresAt <= at);
      expired.forEach(remove);
      return expired.length;
    },
    totals() {
      return totalHolds(holds.values());
    },
  };
}
