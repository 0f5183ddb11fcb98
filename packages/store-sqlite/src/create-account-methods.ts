import { createId } from '@signalbox/core';
import type { Account, AccountStore, BalanceEvent } from '@signalbox/accounts';
import { keyLimitCeilingColumn, toAccount } from '@signalbox/accounts/sql';
import type { StoreContext } from './store-context';

type AccountMethods = Pick<
  AccountStore,
  'createAccount' | 'getAccount' | 'listAccounts' | 'updateAccount' | 'adjustBalance'
>;

/**
 * Account CRUD and balance changes; every result is a fresh object built from the row. A new
 * account and its `opening` event, and a balance change and its `top-up`/`adjustment` event, commit
 * together, so the balance events always add up to the balance (less the ledger's charges). When
 * holds are kept in this process's memory, `reservedMicros` adds them to what the row says, so the
 * gateway and its panel see what is held; another process reading the file sees only the row.
 */
export function createAccountMethods({
  statements,
  transaction,
  now,
  accounts,
  holds,
}: StoreContext): AccountMethods {
  const withHeld = (account: Account | undefined): Account | undefined =>
    account && holds
      ? { ...account, reservedMicros: account.reservedMicros + holds.heldFor(account.id) }
      : account;
  const recordEvent = (
    accountId: string,
    kind: BalanceEvent['kind'],
    deltaMicros: number,
    balanceAfterMicros: number,
  ) =>
    statements.insertBalanceEvent.run(
      createId('bev_'),
      accountId,
      now(),
      kind,
      deltaMicros,
      balanceAfterMicros,
    );
  return {
    async createAccount(input) {
      return transaction(() => {
        const account = toAccount(
          statements.insertAccount.get(
            createId('acct_'),
            input.name,
            Math.round(input.balanceMicros ?? 0),
            input.subscription ?? 'active',
            input.group ?? null,
            keyLimitCeilingColumn(input),
            Date.now(),
          ),
        )!;
        recordEvent(account.id, 'opening', account.balanceMicros, account.balanceMicros);
        return account;
      });
    },
    async getAccount(id) {
      return withHeld(toAccount(accounts.read(id)));
    },
    async listAccounts() {
      return statements.selectAccounts.all().map(row => withHeld(toAccount(row))!);
    },
    async updateAccount(id, patch) {
      // Read, merge and write under the write lock, so a concurrent patch from another process is not lost.
      return transaction(() => {
        accounts.forget(id);
        const current = toAccount(statements.selectAccount.get(id));
        if (!current) return undefined;
        const next = { ...current, ...patch };
        const row = statements.updateAccount.get(
          next.name ?? current.name,
          next.subscription ?? current.subscription,
          next.group ?? null,
          keyLimitCeilingColumn(next),
          id,
        );
        return withHeld(toAccount(row));
      });
    },
    async adjustBalance(id, deltaMicros) {
      // A relative UPDATE: concurrent adjustments from any number of processes all count.
      const delta = Math.round(deltaMicros);
      accounts.forget(id);
      return transaction(() => {
        const account = toAccount(statements.adjustBalance.get(delta, id));
        if (account && delta !== 0)
          recordEvent(id, delta > 0 ? 'top-up' : 'adjustment', delta, account.balanceMicros);
        return withHeld(account);
      });
    },
  };
}
