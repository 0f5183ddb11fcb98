import type { Reservation, Settled } from '@signalbox/accounts';
import { chargeOnSettle } from '@signalbox/accounts/sql';
import { chargeBudgets } from './create-budget-methods';
import { settleHold } from './settle-hold';
import type { StoreContext } from './store-context';

/** What a ledger write needs of an open store: the ledger thread builds one of its own. */
export type LedgerContext = Pick<StoreContext, 'database' | 'statements' | 'transaction' | 'holds' | 'accounts' | 'now'>;

/** Settles one hold inside the running transaction; `undefined` when it was already settled or released. */
export type SettleOnce = (reservation: Pick<Reservation, 'id' | 'accountId'>, costMicros: number) => Settled | undefined;

/**
 * Runs `work` as one transaction, giving it the function that settles holds in it: a hold in this
 * process's memory is charged against what the balance has left after the batch's earlier charges
 * (the cost, never more than the hold nor than that balance), a stored hold as `settleHold` does.
 * Memory holds' charges are added up per account and written with one UPDATE each at the end of the
 * batch (before a stored hold is settled, so that it sees them), not one read and one write per
 * request. A memory hold leaves memory only after the transaction has committed: if it rolls back
 * the hold is still there for the retry, and the same hold met twice in one batch is charged once.
 */
export function settleInTransaction<T>(context: LedgerContext, work: (settle: SettleOnce) => T): T {
  const { statements, holds, accounts } = context;
  const taken = new Map<string, Reservation>();
  const touched = new Set<string>();
  const at = context.now();
  /**
   * Per account charged from memory holds in this batch: the balance left, the charges not yet
   * written, and for an account with budgets the same charges by key (`''`: a hold without one).
   */
  const pending = new Map<string, { balanceMicros: number; chargedMicros: number; byKey: Map<string, number> | undefined }>();
  const writePending = () => {
    for (const [accountId, account] of pending) {
      if (account.chargedMicros > 0) statements.releaseAndCharge.run(0, account.chargedMicros, accountId);
      for (const [keyId, charged] of account.byKey ?? []) chargeBudgets(statements, accountId, keyId, charged, at);
    }
    pending.clear();
  };
  const settle: SettleOnce = (reservation, costMicros) => {
    const held = holds?.get(reservation.id);
    if (!held) {
      writePending();
      const settled = settleHold(statements, reservation, costMicros, at);
      if (settled) touched.add(reservation.accountId);
      return settled;
    }
    if (taken.has(held.id)) return undefined;
    taken.set(held.id, held);
    touched.add(held.accountId);
    let account = pending.get(held.accountId);
    if (!account) {
      const row = statements.selectAccount.get(held.accountId);
      const byKey = Number(row?.['budgeted']) === 1 ? new Map<string, number>() : undefined;
      account = { balanceMicros: Number(row?.['balance_micros'] ?? 0), chargedMicros: 0, byKey };
      pending.set(held.accountId, account);
    }
    const settled = chargeOnSettle(costMicros, held.amountMicros, account.balanceMicros);
    account.balanceMicros -= settled.chargedMicros;
    account.chargedMicros += settled.chargedMicros;
    const keyId = held.keyId ?? '';
    account.byKey?.set(keyId, (account.byKey.get(keyId) ?? 0) + settled.chargedMicros);
    return settled;
  };
  const result = context.transaction(() => {
    const done = work(settle);
    writePending();
    return done;
  });
  holds?.remove(taken.values());
  for (const accountId of touched) accounts.forget(accountId);
  return result;
}
