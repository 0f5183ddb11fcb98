import { generateApiKey, KEY_PREFIX_LENGTH, keyPrefix, looksLikeApiKey } from '@signalbox/accounts';
import { sortById, type ContractContext } from './contract-context';

/** Key creation, lookup by secret, listing and patching. */
export function describeKeys(context: ContractContext): void {
  describe('keys', () => {
    it('returns a sbx- secret once and a record with only its visible prefix', async () => {
      const account = await context.store.createAccount({ name: 'Keys' });
      const before = Date.now();
      const { secret, key } = await context.store.createKey({ accountId: account.id, name: 'ci' });
      expect(looksLikeApiKey(secret)).toBe(true);
      expect(secret.startsWith('sbx-')).toBe(true);
      expect(key).toEqual({
        id: expect.any(String),
        accountId: account.id,
        name: 'ci',
        prefix: secret.slice(0, KEY_PREFIX_LENGTH),
        status: 'active',
        createdAt: expect.any(Number),
      });
      expect(key.createdAt).toBeGreaterThanOrEqual(before);
      expect(JSON.stringify(key)).not.toContain(secret.slice(KEY_PREFIX_LENGTH));
      expect(await context.store.getKey(key.id)).toEqual(key);
    });

    it('keeps every optional field given at creation', async () => {
      const account = await context.store.createAccount({ name: 'Keys' });
      const input = {
        accountId: account.id,
        name: 'full',
        status: 'disabled' as const,
        expiresAt: 1_900_000_000_000,
        group: 'gold',
        allowedModels: ['model-a', 'model-b'],
        limits: {
          requests: 10,
          tokens: 1000,
          windowSeconds: 30,
          concurrency: 2,
          queueSize: 1,
          queueTimeoutMs: 500,
        },
      };
      const { key } = await context.store.createKey(input);
      expect(key).toMatchObject(input);
      expect(await context.store.getKey(key.id)).toEqual(key);
    });

    it('adopts a given secret of the key shape, and refuses a malformed one', async () => {
      const account = await context.store.createAccount({ name: 'Adopted' });
      const secret = generateApiKey();
      const created = await context.store.createKey({ accountId: account.id, name: 'demo', secret });
      expect(created.secret).toBe(secret);
      expect((await context.store.findKeyBySecret(secret))?.id).toBe(created.key.id);
      expect(JSON.stringify(created.key)).not.toContain(secret.slice(KEY_PREFIX_LENGTH));
      await expect(
        context.store.createKey({ accountId: account.id, name: 'bad', secret: 'not-a-key' }),
      ).rejects.toThrow(/shape/);
    });

    it('refuses to create a key for an unknown account', async () => {
      await expect(context.store.createKey({ accountId: 'acct_missing', name: 'x' })).rejects.toThrow();
      expect(await context.store.listKeys()).toEqual([]);
    });

    it('finds the right key by its secret among several', async () => {
      const account = await context.store.createAccount({ name: 'Keys' });
      const created = await Promise.all(
        ['a', 'b', 'c'].map(name => context.store.createKey({ accountId: account.id, name })),
      );
      for (const { secret, key } of created) expect(await context.store.findKeyBySecret(secret)).toEqual(key);
    });

    it('refuses a wrong secret, a same-prefix secret and malformed strings, and finds the right one', async () => {
      const account = await context.store.createAccount({ name: 'Keys' });
      const { secret, key } = await context.store.createKey({ accountId: account.id, name: 'real' });
      const samePrefix = keyPrefix(secret) + generateApiKey().slice(KEY_PREFIX_LENGTH);
      const lastCharacterChanged = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
      for (const wrong of [
        generateApiKey(),
        samePrefix,
        lastCharacterChanged,
        keyPrefix(secret),
        '',
        'sbx-',
      ]) {
        expect(await context.store.findKeyBySecret(wrong)).toBeUndefined();
      }
      expect(await context.store.findKeyBySecret(secret)).toMatchObject({
        id: key.id,
        accountId: account.id,
        name: 'real',
      });
    });

    it('reflects a disabled or updated key when found by its secret', async () => {
      const account = await context.store.createAccount({ name: 'Keys' });
      const { secret, key } = await context.store.createKey({ accountId: account.id, name: 'k' });
      await context.store.updateKey(key.id, { status: 'disabled', allowedModels: ['only-this'] });
      expect(await context.store.findKeyBySecret(secret)).toEqual({
        ...key,
        status: 'disabled',
        allowedModels: ['only-this'],
      });
    });

    it('refuses at once a key disabled or expired after it was found: the next lookup sees the change', async () => {
      const account = await context.store.createAccount({ name: 'Keys' });
      const { secret, key } = await context.store.createKey({ accountId: account.id, name: 'k' });
      expect(await context.store.findKeyBySecret(secret)).toEqual(key);
      await context.store.updateKey(key.id, { status: 'disabled' });
      expect(await context.store.findKeyBySecret(secret)).toEqual({ ...key, status: 'disabled' });
      await context.store.updateKey(key.id, { status: 'active', expiresAt: 1, allowedModels: ['m'] });
      expect(await context.store.findKeyBySecret(secret)).toEqual({ ...key, expiresAt: 1, allowedModels: ['m'] });
    });

    it('lists every key, or only the keys of one account', async () => {
      const first = await context.store.createAccount({ name: 'one' });
      const second = await context.store.createAccount({ name: 'two' });
      const a = (await context.store.createKey({ accountId: first.id, name: 'a' })).key;
      const b = (await context.store.createKey({ accountId: second.id, name: 'b' })).key;
      const c = (await context.store.createKey({ accountId: first.id, name: 'c' })).key;
      expect(sortById(await context.store.listKeys())).toEqual(sortById([a, b, c]));
      expect(sortById(await context.store.listKeys(first.id))).toEqual(sortById([a, c]));
      expect(await context.store.listKeys(second.id)).toEqual([b]);
      expect(await context.store.listKeys('acct_missing')).toEqual([]);
    });

    it('patches status, expiry, allowed models, limits, group and name; undefined clears an optional', async () => {
      const account = await context.store.createAccount({ name: 'Keys' });
      const { key } = await context.store.createKey({ accountId: account.id, name: 'k', group: 'basic' });
      const patch = {
        name: 'renamed',
        status: 'disabled' as const,
        expiresAt: 1_800_000_000_000,
        allowedModels: ['m1'],
        limits: { requests: 5, concurrency: 1 },
        group: 'gold',
      };
      const updated = await context.store.updateKey(key.id, patch);
      expect(updated).toEqual({ ...key, ...patch });
      expect(await context.store.getKey(key.id)).toEqual(updated);

      const cleared = await context.store.updateKey(key.id, {
        expiresAt: undefined,
        limits: undefined,
        status: 'active',
      });
      expect(cleared?.expiresAt).toBeUndefined();
      expect(cleared?.limits).toBeUndefined();
      expect(cleared).toMatchObject({ id: key.id, status: 'active', allowedModels: ['m1'], group: 'gold' });
      expect(await context.store.getKey(key.id)).toEqual(cleared);
    });

    it('keeps who disabled a key while it is disabled, and forgets it once the key is active again', async () => {
      const account = await context.store.createAccount({ name: 'Keys' });
      const { secret, key } = await context.store.createKey({ accountId: account.id, name: 'k' });
      const paused = await context.store.updateKey(key.id, { status: 'disabled', disabledBy: 'account' });
      expect(paused).toEqual({ ...key, status: 'disabled', disabledBy: 'account' });
      expect(await context.store.findKeyBySecret(secret)).toEqual(paused);
      const stopped = await context.store.updateKey(key.id, { disabledBy: 'operator' });
      expect(await context.store.getKey(key.id)).toEqual({ ...key, status: 'disabled', disabledBy: 'operator' });
      expect(await context.store.updateKey(key.id, { name: 'renamed' })).toEqual({ ...stopped, name: 'renamed' });
      const enabled = await context.store.updateKey(key.id, { status: 'active' });
      expect(enabled).toEqual({ ...key, name: 'renamed' });
      expect(enabled).not.toHaveProperty('disabledBy');
      expect(await context.store.findKeyBySecret(secret)).toEqual(enabled);

      const created = await context.store.createKey({ accountId: account.id, name: 'off', status: 'disabled', disabledBy: 'operator' });
      expect(await context.store.getKey(created.key.id)).toMatchObject({ status: 'disabled', disabledBy: 'operator' });
    });

    it('makes a change given as a function from the key as stored, and leaves the key unchanged when it throws', async () => {
      const account = await context.store.createAccount({ name: 'Keys' });
      const { key } = await context.store.createKey({ accountId: account.id, name: 'k' });
      await context.store.updateKey(key.id, { status: 'disabled', disabledBy: 'operator' });
      const seen: unknown[] = [];
      const renamed = await context.store.updateKey(key.id, current => {
        seen.push(current);
        return { name: `${current.name}-renamed` };
      });
      expect(seen).toEqual([{ ...key, status: 'disabled', disabledBy: 'operator' }]);
      expect(renamed).toEqual({ ...key, name: 'k-renamed', status: 'disabled', disabledBy: 'operator' });
      const refused = context.store.updateKey(key.id, () => {
        throw new Error('not allowed');
      });
      await expect(refused).rejects.toThrow('not allowed');
      expect(await context.store.getKey(key.id)).toEqual(renamed);
      expect(await context.store.updateKey('key_missing', () => ({ name: 'x' }))).toBeUndefined();
    });

    it('returns undefined for an unknown key', async () => {
      expect(await context.store.getKey('key_missing')).toBeUndefined();
      expect(await context.store.updateKey('key_missing', { status: 'disabled' })).toBeUndefined();
    });
  });
}
