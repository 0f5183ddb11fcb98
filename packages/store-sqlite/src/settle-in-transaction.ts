import { chargeOnSettle, type Reservation, type Settled } from '@switchyard/accounts';
import { settleHold } from './settle-hold';
import type { StoreContext } from './store-context';

/** Settles one hold inside the running transaction; `undefined` when it was already settled or released. */
export type SettleOnce = (reservation: Reservation, costMicros: number) => Settled | undefined;

/**
 * Runs `work` as one transaction, giving it the function that settles holds in it: a hold in this
 * process's memory is charged against the balance the row has now (the cost, never more than the
 * hold nor than the balance), a stored hold as `settleHold` does. A memory hold leaves memory only
 * after the transaction has committed: if it rolls back the hold is still there for the retry, and
 * the same hold met twice in one batch is charged once.
 */
export function settleInTransaction<T>(context: StoreContext, work: (settle: SettleOnce) => T): T {
  const { statements, holds, accounts } = context;
  const taken = new Map<string, Reservation>();
  const touched = new Set<string>();
  const settle: SettleOnce = (reservation, costMicros) => {
    const held = holds?.get(reservation.id);
    if (!held) {
      const settled = settleHold(statements, reservation, costMicros);
      if (settled) touched.add(reservation.accountId);
      return settled;
    }
    if (taken.has(held.id)) return undefined;
    taken.set(held.id, held);
    touched.add(held.accountId);
    const balance = Number(statements.selectAccount.get(held.accountId)?.['balance_micros'] ?? 0);
    const settled = chargeOnSettle(costMicros, held.amountMicros, balance);
    statements.releaseAndCharge.run(0, settled.chargedMicros, held.accountId);
    return settled;
  };
  const result = context.transaction(() => work(settle));
  holds?.remove(taken.values());
  for (const accountId of touched) accounts.forget(accountId);
  return result;
}
