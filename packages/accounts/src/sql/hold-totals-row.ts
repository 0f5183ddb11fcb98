import type { HoldTotals } from '../store/account-store';

/**
 * The one-row aggregate of `reservations` a SQL store reads for `holdTotals` (SQLite, or PostgreSQL
 * with BIGINT read as numbers): `min(expires_at)` is NULL when there is no hold.
 */
export type HoldTotalsRow = {
  count: number;
  amount_micros: number;
  earliest_expires_at: number | null;
};

/** `HoldTotals` from the aggregate's row. */
export function toHoldTotals(row: Record<string, unknown>): HoldTotals {
  const totals = row as HoldTotalsRow;
  return {
    count: totals.count,
    amountMicros: totals.amount_micros,
    earliestExpiresAt: totals.earliest_expires_at ?? undefined,
  };
}
