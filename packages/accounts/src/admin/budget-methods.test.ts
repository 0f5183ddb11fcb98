import { ADMIN_IDENTITY } from './console-identity';
import { createAdminService } from './create-admin-service';
import { createBudgetMethods } from './create-budget-methods';
import { createMemoryAccountStore } from '../store/create-memory-account-store';

const NOW = Date.UTC(2026, 4, 17, 9, 30);

describe('budgets in the admin service', () => {
  it("sets an account's and a key's budgets, and shows each record's spend in the current period", async () => {
    const store = createMemoryAccountStore({ holdSweepIntervalMs: 0, now: () => NOW });
    const admin = createAdminService({ store, adminTokenDigests: [], now: () => NOW });
    const account = await admin.createAccount(ADMIN_IDENTITY, { name: 'Team', balance: 10 });
    const { key } = await admin.createKey(ADMIN_IDENTITY, { accountId: account.id, name: 'ci' });
    expect(await admin.setBudget(ADMIN_IDENTITY, { accountId: account.id, period: 'month', limit: 2 })).toEqual({
      data: [
        {
          accountId: account.id, keyId: null, period: 'month', limit: 2, limitMicros: 2_000_000, spent: 0, spentMicros: 0, heldMicros: 0,
          periodStart: '2026-05-01T00:00:00.000Z', renewsAt: '2026-06-01T00:00:00.000Z',
        },
      ],
    });
    await admin.setBudget(ADMIN_IDENTITY, { keyId: key.id, period: 'day', limit: 0.5 });
    await store.settle((await store.reserve(account.id, 300_000, { keyId: key.id }))!, 250_000);

    const shown = await admin.getAccount(ADMIN_IDENTITY, account.id);
    expect(shown.budgets).toEqual([expect.objectContaining({ period: 'month', spent: 0.25, spentMicros: 250_000 })]);
    const [listed] = (await admin.listKeys(ADMIN_IDENTITY, account.id)).data;
    expect(listed!.budgets).toEqual([expect.objectContaining({ keyId: key.id, period: 'day', limit: 0.5, spentMicros: 250_000, renewsAt: '2026-05-18T00:00:00.000Z' })]);
    expect((await admin.listBudgets(ADMIN_IDENTITY)).data).toHaveLength(2);

    expect((await admin.setBudget(ADMIN_IDENTITY, { keyId: key.id, period: 'day', limit: null })).data).toEqual([]);
    await expect(admin.setBudget(ADMIN_IDENTITY, { period: 'day', limit: 1 })).rejects.toMatchObject({ code: 'INVALID_REQUEST', param: 'accountId' });
    await expect(admin.setBudget(ADMIN_IDENTITY, { accountId: account.id, period: 'week', limit: 1 })).rejects.toMatchObject({ code: 'INVALID_REQUEST', param: 'period' });
    await expect(admin.setBudget(ADMIN_IDENTITY, { accountId: 'acct_missing', period: 'day', limit: 1 })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });
});

describe('createBudgetMethods', () => {
  it('hands each change, with the owner\'s budgets before and after, to the audit log\'s recorder, and a refused one (a viewer\'s among them) not at all', async () => {
    const store = createMemoryAccountStore({ holdSweepIntervalMs: 0, now: () => NOW });
    const recorded: unknown[][] = [];
    const methods = createBudgetMethods(store, async (...change) => void recorded.push(change));
    const account = await store.createAccount({ name: 'Team', balanceMicros: 0 });
    await methods.setBudget(ADMIN_IDENTITY, { accountId: account.id, period: 'day', limit: 1 });
    await methods.setBudget(ADMIN_IDENTITY, { accountId: account.id, period: 'day', limit: null });
    const owner = { kind: 'account', accountId: account.id, tokenId: 'ctok_1', role: 'owner', actor: 'console:alice' } as const;
    await expect(methods.setBudget(owner, { period: 'day', limit: 1 })).rejects.toMatchObject({ code: 'ADMIN_TOKEN_REQUIRED' });
    const { key } = await store.createKey({ accountId: account.id, name: 'ci' });
    await expect(methods.setBudget({ ...owner, role: 'viewer' }, { keyId: key.id, period: 'day', limit: 1 })).rejects.toMatchObject({ code: 'CONSOLE_ROLE_FORBIDDEN' });
    expect(recorded).toEqual([
      [ADMIN_IDENTITY, { type: 'budget', id: `${account.id}:day`, accountId: account.id }, 'set', [], [expect.objectContaining({ limitMicros: 1_000_000 })]],
      [ADMIN_IDENTITY, { type: 'budget', id: `${account.id}:day`, accountId: account.id }, 'remove', [expect.objectContaining({ limitMicros: 1_000_000 })], []],
    ]);
  });
});
