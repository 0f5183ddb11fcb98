import {
  CONSOLE_TOKEN_PREFIX_LENGTH,
  generateApiKey,
  generateConsoleToken,
  looksLikeApiKey,
  looksLikeConsoleToken,
} from '@signalbox/accounts';
import { sortById, type ContractContext } from './contract-context';

/** Account console tokens: created once with their secret, found by it, listed, disabled. */
export function describeConsoleTokens(context: ContractContext): void {
  describe('console tokens', () => {
    it('returns a sbx-console- secret once and a record with only its visible prefix', async () => {
      const account = await context.store.createAccount({ name: 'Console' });
      const before = Date.now();
      const { secret, token } = await context.store.createConsoleToken({ accountId: account.id, name: 'alice' });
      expect(looksLikeConsoleToken(secret)).toBe(true);
      expect(looksLikeApiKey(secret)).toBe(false);
      expect(secret).toMatch(/^sbx-console-[A-Za-z0-9]{40}$/);
      expect(token).toEqual({
        id: expect.stringMatching(/^ctok_/),
        accountId: account.id,
        name: 'alice',
        prefix: secret.slice(0, CONSOLE_TOKEN_PREFIX_LENGTH),
        status: 'active',
        role: 'owner',
        createdAt: expect.any(Number),
      });
      expect(token.createdAt).toBeGreaterThanOrEqual(before);
      expect(JSON.stringify(token)).not.toContain(secret.slice(CONSOLE_TOKEN_PREFIX_LENGTH));
      expect(await context.store.findConsoleTokenBySecret(secret)).toEqual(token);
    });

    it('keeps the expiry given at creation', async () => {
      const account = await context.store.createAccount({ name: 'Console' });
      const { secret, token } = await context.store.createConsoleToken({ accountId: account.id, name: 'ci', expiresAt: 1_900_000_000_000 });
      expect(token.expiresAt).toBe(1_900_000_000_000);
      expect(await context.store.findConsoleTokenBySecret(secret)).toEqual(token);
    });

    it('refuses a token for an account that does not exist', async () => {
      await expect(context.store.createConsoleToken({ accountId: 'acct_missing', name: 'x' })).rejects.toThrow(/acct_missing/);
    });

    it('finds nothing for an unknown token, a near miss, an API key or an API key secret of the same account', async () => {
      const account = await context.store.createAccount({ name: 'Console' });
      const { secret } = await context.store.createConsoleToken({ accountId: account.id, name: 'alice' });
      const { secret: apiKey } = await context.store.createKey({ accountId: account.id, name: 'k' });
      const nearMiss = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
      for (const candidate of [generateConsoleToken(), nearMiss, apiKey, generateApiKey(), '']) {
        expect(await context.store.findConsoleTokenBySecret(candidate)).toBeUndefined();
      }
      expect(await context.store.findKeyBySecret(secret)).toBeUndefined();
    });

    it('lists every token or one account’s, and never the secrets', async () => {
      const first = await context.store.createAccount({ name: 'First' });
      const second = await context.store.createAccount({ name: 'Second' });
      const a = await context.store.createConsoleToken({ accountId: first.id, name: 'a' });
      const b = await context.store.createConsoleToken({ accountId: second.id, name: 'b' });
      expect(sortById(await context.store.listConsoleTokens())).toEqual(sortById([a.token, b.token]));
      expect(await context.store.listConsoleTokens(second.id)).toEqual([b.token]);
      expect(await context.store.listConsoleTokens('acct_missing')).toEqual([]);
      expect(JSON.stringify(await context.store.listConsoleTokens())).not.toContain(a.secret.slice(CONSOLE_TOKEN_PREFIX_LENGTH));
    });

    it('disables and enables a token, which is still found by its secret with its status', async () => {
      const account = await context.store.createAccount({ name: 'Console' });
      const { secret, token } = await context.store.createConsoleToken({ accountId: account.id, name: 'alice' });
      expect(await context.store.updateConsoleToken(token.id, { status: 'disabled' })).toEqual({ ...token, status: 'disabled' });
      expect(await context.store.findConsoleTokenBySecret(secret)).toEqual({ ...token, status: 'disabled' });
      expect(await context.store.updateConsoleToken(token.id, { status: 'active' })).toEqual(token);
      expect(await context.store.updateConsoleToken('ctok_missing', { status: 'disabled' })).toBeUndefined();
    });

    it('keeps a role given at creation and changes it apart from the status', async () => {
      const account = await context.store.createAccount({ name: 'Console' });
      const { secret, token } = await context.store.createConsoleToken({ accountId: account.id, name: 'victor', role: 'viewer' });
      expect(token.role).toBe('viewer');
      expect(await context.store.updateConsoleToken(token.id, { status: 'disabled' })).toEqual({ ...token, status: 'disabled' });
      expect(await context.store.updateConsoleToken(token.id, { role: 'owner' })).toEqual({ ...token, status: 'disabled', role: 'owner' });
      expect(await context.store.findConsoleTokenBySecret(secret)).toEqual({ ...token, status: 'disabled', role: 'owner' });
      expect(await context.store.updateConsoleToken(token.id, {})).toEqual({ ...token, status: 'disabled', role: 'owner' });
    });

    it('returns copies: changing a returned record changes nothing stored', async () => {
      const account = await context.store.createAccount({ name: 'Console' });
      const { secret, token } = await context.store.createConsoleToken({ accountId: account.id, name: 'alice' });
      const found = (await context.store.findConsoleTokenBySecret(secret))!;
      found.status = 'disabled';
      token.name = 'changed';
      expect(await context.store.findConsoleTokenBySecret(secret)).toMatchObject({ name: 'alice', status: 'active' });
    });
  });
}
