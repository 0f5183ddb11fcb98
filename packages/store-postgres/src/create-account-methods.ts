import { createId } from '@signalbox/core';
import type { AccountStore, BalanceEvent } from '@signalbox/accounts';
import { keyLimitCeilingColumn, toAccount } from '@signalbox/accounts/sql';
import { ACCOUNT_COLUMNS, SELECT_ACCOUNT } from './account-statements';
import type { AnnouncedCache } from './create-announced-cache';
import { createSharedReads } from './create-shared-reads';
import type { Row, SqlSession } from './sql-session';
import type { StoreContext } from './store-context';

type AccountMethods = Pick<
  AccountStore,
  'createAccount' | 'getAccount' | 'getAccountForRequest' | 'confirmAccountForRequest' | 'listAccounts' | 'updateAccount' | 'adjustBalance'
>;

/**
 * Account CRUD and balance changes; every result is a fresh object built from the row. A new
 * account and its `opening` event, and a balance change and its `top-up`/`adjustment` event, commit
 * together, so the balance events always add up to the balance (less the ledger's charges).
 * `getAccountForRequest` reads through `accounts`, which this store's own changes empty at once;
 * `confirmAccountForRequest` reads the row, one statement for the requests of an account that
 * overlap, none of them joining a read begun before such a change.
 */
export function createAccountMethods({ sql, transaction, now }: StoreContext, accounts: AnnouncedCache): AccountMethods {
  const recordEvent = (
    session: SqlSession,
    accountId: string,
    kind: BalanceEvent['kind'],
    deltaMicros: number,
    balanceAfterMicros: number,
  ) =>
    session.rows(
      `INSERT INTO balance_events (id, account_id, time, kind, delta_micros, balance_after_micros) VALUES ($1, $2, $3, $4, $5, $6)`,
      [createId('bev_'), accountId, now(), kind, deltaMicros, balanceAfterMicros],
    );
  const confirmations = createSharedReads<Row | undefined>();
  /** A change made here is shown to the very next call: neither kept rows nor reads begun before it serve it. */
  const forgetRows = () => {
    accounts.clear();
    confirmations.forget();
  };
  return {
    async createAccount(input) {
      return transaction(async session => {
        const row = await session.row(
          `INSERT INTO accounts (id, name, balance_micros, reserved_micros, subscription, group_name, key_limit_ceiling, created_at)
           VALUES ($1, $2, $3, 0, $4, $5, $6, $7) RETURNING ${ACCOUNT_COLUMNS}`,
          [createId('acct_'), input.name, Math.round(input.balanceMicros ?? 0), input.subscription ?? 'active', input.group ?? null, keyLimitCeilingColumn(input), Date.now()],
        );
        const account = toAccount(row)!;
        await recordEvent(session, account.id, 'opening', account.balanceMicros, account.balanceMicros);
        return account;
      });
    },
    async getAccount(id) {
      return toAccount(await sql.row(SELECT_ACCOUNT, [id]));
    },
    async getAccountForRequest(id) {
      return toAccount(await accounts.find(id, () => sql.row(SELECT_ACCOUNT, [id])));
    },
    async confirmAccountForRequest(id) {
      // Each caller gets its own object built from the shared row.
      return toAccount(await confirmations.read(id, () => sql.row(SELECT_ACCOUNT, [id])));
    },
    async listAccounts() {
      return (await sql.rows(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY seq`)).map(row => toAccount(row)!);
    },
    async updateAccount(id, patch) {
      // Read (locking the row), merge and write, so a concurrent patch from another instance is not lost.
      forgetRows();
      return transaction(async session => {
        const current = toAccount(await session.row(`${SELECT_ACCOUNT} FOR UPDATE`, [id]));
        if (!current) return undefined;
        const next = { ...current, ...patch };
        const row = await session.row(
          `UPDATE accounts SET name = $1, subscription = $2, group_name = $3, key_limit_ceiling = $4 WHERE id = $5 RETURNING ${ACCOUNT_COLUMNS}`,
          [next.name ?? current.name, next.subscription ?? current.subscription, next.group ?? null, keyLimitCeilingColumn(next), id],
        );
        return toAccount(row);
      }).finally(forgetRows);
    },
    async adjustBalance(id, deltaMicros) {
      // A relative UPDATE: concurrent adjustments from any number of instances all count.
      const delta = Math.round(deltaMicros);
      forgetRows();
      return transaction(async session => {
        const account = toAccount(
          await session.row(
            `UPDATE accounts SET balance_micros = balance_micros + $1 WHERE id = $2 RETURNING ${ACCOUNT_COLUMNS}`,
            [delta, id],
          ),
        );
        if (account && delta !== 0) {
          await recordEvent(session, id, delta > 0 ? 'top-up' : 'adjustment', delta, account.balanceMicros);
        }
        return account;
      }).finally(forgetRows);
    },
  };
}
