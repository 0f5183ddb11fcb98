import type { AccountStore } from '@signalbox/accounts';
import type { ContractContext } from './contract-context';
import { usageCommit } from './describe-usage-ledger-contract';

/** 2026-01-31T12:00:00Z: half a day before a new day and a new month. */
const NOON = Date.UTC(2026, 0, 31, 12);
const DAY = 24 * 60 * 60 * 1000;

/** Budgets per day and month on top of the balance: held atomically, charged in their period, renewed in the next. */
export function describeBudgets(context: ContractContext): void {
  describe('budgets', () => {
    let time = NOON;
    let store: AccountStore;
    beforeEach(async () => {
      time = NOON;
      store = await context.createStore({ now: () => time, holdSweepIntervalMs: 0 });
    });
    afterEach(async () => {
      await store.close();
    });

    it('refuses a hold that would take a budget past its limit while the balance has room, and changes nothing', async () => {
      const account = await store.createAccount({ name: 'B', balanceMicros: 10_000 });
      const { key } = await store.createKey({ accountId: account.id, name: 'k' });
      expect(await store.setBudget({ accountId: account.id, period: 'day', limitMicros: 500 })).toEqual([
        { accountId: account.id, period: 'day', limitMicros: 500, spentMicros: 0, heldMicros: 0, periodStart: Date.UTC(2026, 0, 31) },
      ]);
      const first = (await store.reserve(account.id, 300, { keyId: key.id }))!;
      expect(first).toMatchObject({ amountMicros: 300, keyId: key.id });
      expect(await store.reserve(account.id, 201, { keyId: key.id })).toBeUndefined();
      expect(await store.reserve(account.id, 201)).toBeUndefined();
      expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 10_000, reservedMicros: 300 });
      expect(await store.reserve(account.id, 200)).toMatchObject({ amountMicros: 200 });
      expect(await store.listBudgets(account.id)).toEqual([expect.objectContaining({ spentMicros: 0, heldMicros: 500 })]);
    });

    it("counts every key against the account's budget and only its own against a key's", async () => {
      const account = await store.createAccount({ name: 'B', balanceMicros: 10_000 });
      const { key: limited } = await store.createKey({ accountId: account.id, name: 'limited' });
      const { key: free } = await store.createKey({ accountId: account.id, name: 'free' });
      await store.setBudget({ accountId: account.id, keyId: limited.id, period: 'month', limitMicros: 100 });
      await store.setBudget({ accountId: account.id, period: 'month', limitMicros: 1_000 });
      expect(await store.reserve(account.id, 101, { keyId: limited.id })).toBeUndefined();
      const held = (await store.reserve(account.id, 100, { keyId: limited.id }))!;
      expect(await store.reserve(account.id, 900, { keyId: free.id })).toMatchObject({ amountMicros: 900 });
      expect(await store.reserve(account.id, 1, { keyId: free.id })).toBeUndefined();
      expect(await store.settle(held, 40)).toEqual({ chargedMicros: 40, uncoveredMicros: 0 });
      const budgets = await store.listBudgets(account.id);
      expect(budgets).toHaveLength(2);
      expect(budgets.find(budget => budget.keyId === limited.id)).toMatchObject({ limitMicros: 100, spentMicros: 40, heldMicros: 0 });
      expect(budgets.find(budget => budget.keyId === undefined)).toMatchObject({ limitMicros: 1_000, spentMicros: 40, heldMicros: 900 });
      expect(await store.reserve(account.id, 60, { keyId: free.id })).toMatchObject({ amountMicros: 60 });
      expect(await store.reserve(account.id, 1, { keyId: limited.id })).toBeUndefined();
    });

    it('counts charges in the period they are made in, and a new day starts from nothing while the month goes on', async () => {
      const account = await store.createAccount({ name: 'B', balanceMicros: 10_000 });
      await store.setBudget({ accountId: account.id, period: 'day', limitMicros: 100 });
      await store.setBudget({ accountId: account.id, period: 'month', limitMicros: 250 });
      await store.settle((await store.reserve(account.id, 100))!, 100);
      expect(await store.reserve(account.id, 1)).toBeUndefined();
      time = Date.UTC(2026, 0, 31, 23, 59, 59, 999);
      expect(await store.reserve(account.id, 1)).toBeUndefined();
      time = Date.UTC(2026, 1, 1);
      // A new day and a new month at once: both renewed.
      await store.commitUsage([usageCommit({ accountId: account.id, time }, { reservation: (await store.reserve(account.id, 100))!, costMicros: 100 })]);
      time += DAY;
      expect(await store.listBudgets(account.id)).toEqual([
        expect.objectContaining({ period: 'day', spentMicros: 0, periodStart: Date.UTC(2026, 1, 2) }),
        expect.objectContaining({ period: 'month', spentMicros: 100, periodStart: Date.UTC(2026, 1, 1) }),
      ]);
      expect(await store.reserve(account.id, 151)).toBeUndefined();
      expect(await store.reserve(account.id, 100)).toMatchObject({ amountMicros: 100 });
      expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 9_800 });
    });

    it("opens a new budget with what its owner's ledger rows charged in the period, keeps the count when the limit changes, and removes it with null", async () => {
      const account = await store.createAccount({ name: 'B', balanceMicros: 10_000 });
      const { key } = await store.createKey({ accountId: account.id, name: 'k' });
      await store.commitUsage([
        usageCommit({ accountId: account.id, keyId: key.id, time: NOON - 60_000 }, { reservation: (await store.reserve(account.id, 70))!, costMicros: 70 }),
        usageCommit({ accountId: account.id, time: NOON - DAY }, { reservation: (await store.reserve(account.id, 5))!, costMicros: 5 }),
      ]);
      expect(await store.setBudget({ accountId: account.id, keyId: key.id, period: 'day', limitMicros: 100 })).toEqual([
        expect.objectContaining({ keyId: key.id, spentMicros: 70 }),
      ]);
      expect(await store.setBudget({ accountId: account.id, period: 'month', limitMicros: 100 })).toEqual([
        expect.objectContaining({ period: 'month', spentMicros: 75 }),
      ]);
      expect(await store.reserve(account.id, 31, { keyId: key.id })).toBeUndefined();
      expect(await store.setBudget({ accountId: account.id, keyId: key.id, period: 'day', limitMicros: 200 })).toEqual([
        expect.objectContaining({ limitMicros: 200, spentMicros: 70 }),
      ]);
      expect(await store.reserve(account.id, 26, { keyId: key.id })).toBeUndefined();
      expect(await store.setBudget({ accountId: account.id, period: 'month', limitMicros: null })).toEqual([]);
      expect(await store.reserve(account.id, 130, { keyId: key.id })).toMatchObject({ amountMicros: 130 });
      expect(await store.reserve(account.id, 1, { keyId: key.id })).toBeUndefined();
      expect(await store.reserve(account.id, 1_000)).toMatchObject({ amountMicros: 1_000 });
    });

    it('refuses a budget for an unknown account, or for a key of another account', async () => {
      const account = await store.createAccount({ name: 'B', balanceMicros: 10 });
      const other = await store.createAccount({ name: 'O', balanceMicros: 10 });
      const { key } = await store.createKey({ accountId: other.id, name: 'k' });
      expect(await store.setBudget({ accountId: 'acct_missing', period: 'day', limitMicros: 1 })).toBeUndefined();
      expect(await store.setBudget({ accountId: account.id, keyId: key.id, period: 'day', limitMicros: 1 })).toBeUndefined();
      expect(await store.listBudgets(account.id)).toEqual([]);
      expect(await store.listBudgets(other.id)).toEqual([]);
    });

    it('never holds more than a budget under 200 concurrent holds', async () => {
      const account = await store.createAccount({ name: 'B', balanceMicros: 1_000_000 });
      const { key } = await store.createKey({ accountId: account.id, name: 'k' });
      await store.setBudget({ accountId: account.id, keyId: key.id, period: 'day', limitMicros: 50 });
      const holds = await Promise.all(Array.from({ length: 200 }, () => store.reserve(account.id, 1, { keyId: key.id })));
      expect(holds.filter(Boolean)).toHaveLength(50);
      expect(await store.getAccount(account.id)).toMatchObject({ reservedMicros: 50 });
    });
  });
}
