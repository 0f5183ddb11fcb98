import { createId } from '@switchyard/core';
import type { AccountStore } from '@switchyard/accounts';
import { toAccount } from './account-row';
import type { StoreContext } from './store-context';

type AccountMethods = Pick<
  AccountStore,
  'createAccount' | 'getAccount' | 'listAccounts' | 'updateAccount' | 'adjustBalance'
>;

/** Account CRUD and balance changes; every result is a fresh object built from the row. */
export function createAccountMethods({ statements, transaction }: StoreContext): AccountMethods {
  return {
    async createAccount(input) {
      const row = statements.insertAccount.get(
        createId('acct_'),
        input.name,
        Math.round(input.balanceMicros ?? 0),
        input.subscription ?? 'active',
        input.group ?? null,
        Date.now(),
      );
      return toAccount(row)!;
    },
    async getAccount(id) {
      return toAccount(statements.selectAccount.get(id));
    },
    async listAccounts() {
      return statements.selectAccounts.all().map(row => toAccount(row)!);
    },
    async updateAccount(id, patch) {
      // Read, merge and write under the write lock, so a concurrent patch from another process is not lost.
      return transaction(() => {
        const current = toAccount(statements.selectAccount.get(id));
        if (!current) return undefined;
        const next = { ...current, ...patch };
        const row = statements.updateAccount.get(
          next.name ?? current.name,
          next.subscription ?? current.subscription,
          next.group ?? null,
          id,
        );
        return toAccount(row);
      });
    },
    async adjustBalance(id, deltaMicros) {
      // One relative UPDATE: concurrent adjustments from any number of processes all count.
      return toAccount(statements.adjustBalance.get(Math.round(deltaMicros), id));
    },
  };
}
