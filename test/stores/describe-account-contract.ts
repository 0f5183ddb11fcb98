import { sortById, type ContractContext } from './contract-context';

/** Account CRUD and balance adjustments. */
export function describeAccounts(context: ContractContext): void {
  describe('accounts', () => {
    it('answers ping while open (what a readiness probe asks)', async () => {
      await expect(context.store.ping()).resolves.toBeUndefined();
    });

    it('creates an account with defaults and returns it from getAccount', async () => {
      const before = Date.now();
      const account = await context.store.createAccount({ name: 'Acme' });
      expect(account).toEqual({
        id: expect.any(String),
        name: 'Acme',
        balanceMicros: 0,
        reservedMicros: 0,
        subscription: 'active',
        createdAt: expect.any(Number),
      });
      expect(account.group).toBeUndefined();
      expect(account.createdAt).toBeGreaterThanOrEqual(before);
      expect(account.createdAt).toBeLessThanOrEqual(Date.now());
      expect(await context.store.getAccount(account.id)).toEqual(account);
    });

    it('keeps the given balance, subscription and group', async () => {
      const input = {
        name: 'Beta',
        balanceMicros: 5_000_000,
        subscription: 'inactive' as const,
        group: 'gold',
      };
      const account = await context.store.createAccount(input);
      expect(account).toMatchObject(input);
      expect(await context.store.getAccount(account.id)).toEqual(account);
    });

    it('gives each account its own id and lists them all', async () => {
      const first = await context.store.createAccount({ name: 'one' });
      const second = await context.store.createAccount({ name: 'two', balanceMicros: 7 });
      expect(first.id).not.toBe(second.id);
      const listed = await context.store.listAccounts();
      expect(sortById(listed)).toEqual(sortById([first, second]));
    });

    it('returns undefined for an unknown account', async () => {
      expect(await context.store.getAccount('acct_missing')).toBeUndefined();
      expect(await context.store.updateAccount('acct_missing', { name: 'x' })).toBeUndefined();
      expect(await context.store.adjustBalance('acct_missing', 10)).toBeUndefined();
      expect(await context.store.listAccounts()).toEqual([]);
    });

    it('patches name, subscription and group and keeps everything else', async () => {
      const account = await context.store.createAccount({ name: 'Old', balanceMicros: 42, group: 'basic' });
      const renamed = await context.store.updateAccount(account.id, { name: 'New' });
      expect(renamed).toEqual({ ...account, name: 'New' });
      const moved = await context.store.updateAccount(account.id, {
        subscription: 'inactive',
        group: 'gold',
      });
      expect(moved).toEqual({ ...account, name: 'New', subscription: 'inactive', group: 'gold' });
      expect(await context.store.getAccount(account.id)).toEqual(moved);
    });

    it('keeps, replaces and clears an account’s key limit ceiling', async () => {
      const ceiling = { concurrency: 4, queueSize: 2, requests: 100, windowSeconds: 30 };
      const account = await context.store.createAccount({ name: 'Ceiling', keyLimitCeiling: ceiling });
      expect(account.keyLimitCeiling).toEqual(ceiling);
      expect(await context.store.getAccount(account.id)).toEqual(account);
      const raised = await context.store.updateAccount(account.id, { keyLimitCeiling: { concurrency: 8 } });
      expect(raised).toEqual({ ...account, keyLimitCeiling: { concurrency: 8 } });
      expect(await context.store.updateAccount(account.id, { name: 'Renamed' })).toEqual({ ...raised, name: 'Renamed' });
      const cleared = await context.store.updateAccount(account.id, { keyLimitCeiling: undefined });
      expect(cleared?.keyLimitCeiling).toBeUndefined();
      expect(await context.store.getAccount(account.id)).toEqual(cleared);
      expect((await context.store.createAccount({ name: 'None' })).keyLimitCeiling).toBeUndefined();
    });

    it('adds and removes balance in integer micro-units', async () => {
      const account = await context.store.createAccount({ name: 'Pay', balanceMicros: 1000 });
      expect(await context.store.adjustBalance(account.id, 500)).toMatchObject({ balanceMicros: 1500 });
      expect(await context.store.adjustBalance(account.id, -2000)).toMatchObject({ balanceMicros: -500 });
      expect(await context.store.adjustBalance(account.id, 0.6)).toMatchObject({ balanceMicros: -499 });
      expect(await context.store.getAccount(account.id)).toMatchObject({
        balanceMicros: -499,
        reservedMicros: 0,
      });
    });
  });
}
