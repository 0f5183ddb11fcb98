import type { ContractContext } from './contract-context';

/** Results and inputs are copies: mutating them never changes the store. */
export function describeCopies(context: ContractContext): void {
  describe('copies', () => {
    it('returns accounts that do not change the store when mutated', async () => {
      const account = await context.store.createAccount({ name: 'C', balanceMicros: 100, group: 'g' });
      const pristine = structuredClone(account);
      account.balanceMicros = 1_000_000;
      account.name = 'mutated';
      const fetched = (await context.store.getAccount(pristine.id))!;
      fetched.reservedMicros = 99;
      const listed = await context.store.listAccounts();
      listed[0]!.group = 'mutated';
      (await context.store.adjustBalance(pristine.id, 0))!.name = 'mutated';
      (await context.store.updateAccount(pristine.id, {}))!.name = 'mutated';
      expect(await context.store.getAccount(pristine.id)).toEqual(pristine);
    });

    it('returns keys whose arrays and objects do not change the store when mutated', async () => {
      const account = await context.store.createAccount({ name: 'C' });
      const allowedModels = ['m1'];
      const limits = { requests: 1 };
      const { secret, key } = await context.store.createKey({
        accountId: account.id,
        name: 'k',
        allowedModels,
        limits,
      });
      const pristine = structuredClone(key);
      allowedModels.push('from-input');
      limits.requests = 1000;
      (key.allowedModels as string[]).push('from-result');
      key.limits!.requests = 2000;
      const found = (await context.store.findKeyBySecret(secret))!;
      (found.allowedModels as string[]).push('from-find');
      found.status = 'disabled';
      const listed = await context.store.listKeys(account.id);
      listed[0]!.limits!.tokens = 5;
      const updated = (await context.store.updateKey(key.id, {}))!;
      updated.name = 'mutated';
      expect(await context.store.getKey(pristine.id)).toEqual(pristine);
      expect(await context.store.findKeyBySecret(secret)).toEqual(pristine);
    });

    it('copies a patch instead of keeping it', async () => {
      const account = await context.store.createAccount({ name: 'C' });
      const { key } = await context.store.createKey({ accountId: account.id, name: 'k' });
      const allowedModels = ['m1'];
      await context.store.updateKey(key.id, { allowedModels });
      allowedModels.push('later');
      expect((await context.store.getKey(key.id))!.allowedModels).toEqual(['m1']);
    });
  });
}
