import type { Settled } from './account-store';

/**
 * What `settle` charges for a request that cost `costMicros` against a hold of `heldMicros` on a
 * balance of `balanceMicros`: the cost (whole micro-units), but never more than the hold (the most
 * the request was allowed to cost) nor more than the balance has, so a balance never goes below
 * zero. The rest is reported as uncovered, for the usage record and the admin.
 */
export function chargeOnSettle(costMicros: number, heldMicros: number, balanceMicros: number): Settled {
  const cost = Math.max(0, Math.round(costMicros));
  const chargedMicros = Math.max(0, Math.min(cost, heldMicros, balanceMicros));
  return { chargedMicros, uncoveredMicros: cost - chargedMicros };
}
