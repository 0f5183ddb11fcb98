import type { HoldTotals, Reservation } from './account-store';

/** The totals of holds kept in memory (`AccountStore.holdTotals`), in one pass over them. */
export function totalHolds(reservations: Iterable<Reservation>): HoldTotals {
  let count = 0;
  let amountMicros = 0;
  let earliestExpiresAt: number | undefined;
  for (const reservation of reservations) {
    count += 1;
    amountMicros += reservation.amountMicros;
    if (earliestExpiresAt === undefined || reservation.expiresAt < earliestExpiresAt) earliestExpiresAt = reservation.expiresAt;
  }
  return { count, amountMicros, earliestExpiresAt };
}
