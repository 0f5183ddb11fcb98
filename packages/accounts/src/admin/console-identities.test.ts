import { gatewayErrorOfAsync } from '@signalbox/core/testing';
import { generateApiKey } from '../keys/api-key-secrets';
import { createMemoryAccountStore } from '../store/create-memory-account-store';
import { digestAdminToken, generateAdminToken } from './admin-tokens';
import { ADMIN_IDENTITY, type ConsoleIdentity } from './console-identity';
import type { ConsoleRoute } from './console-route';
import { createAdminService } from './create-admin-service';

const T0 = 1_767_225_600_000;

function route(model: string, groups: string[] | null): ConsoleRoute {
  return {
    model,
    description: null,
    interfaces: [{ name: 'responses', protocol: 'openai-responses', path: '/v1/responses' }],
    pricing: { inputPerMillion: 1, outputPerMillion: 2, cachedInputPerMillion: null, cacheWritePerMillion: null, cacheWrite1hPerMillion: null },
    contextTokens: 128_000,
    upstreamProtocol: 'anthropic-messages',
    groups,
  };
}

async function setUp() {
  let clock = T0;
  const adminToken = generateAdminToken();
  const store = createMemoryAccountStore({ holdSweepIntervalMs: 0 });
  const routes = [route('open-model', null), route('gold-model', ['gold']), route('silver-model', ['silver'])];
  const admin = createAdminService({ store, adminTokenDigests: [digestAdminToken(adminToken)], routes: () => routes, now: () => clock });
  const own = await admin.createAccount(ADMIN_IDENTITY, { name: 'Own', balance: 5 });
  const other = await admin.createAccount(ADMIN_IDENTITY, { name: 'Other', balance: 7, group: 'silver' });
  const { secret } = await admin.createConsoleToken(ADMIN_IDENTITY, { accountId: own.id, name: 'alice' });
  const identity = await admin.authenticate({ authorization: `Bearer ${secret}` });
  return { admin, store, adminToken, own, other, secret, identity, setClock: (time: number) => (clock = time) };
}

describe('console identities', () => {
  describe('authenticate', () => {
    it('turns an account console token into that account’s identity', async () => {
      const { identity, own, store } = await setUp();
      const [token] = await store.listConsoleTokens(own.id);
      expect(identity).toEqual({ kind: 'account', accountId: own.id, tokenId: token!.id, role: 'owner', actor: 'console:alice' });
    });

    it('refuses a disabled, an expired and an unknown console token with 401 ADMIN_TOKEN_INVALID', async () => {
      const { admin, own, secret, setClock } = await setUp();
      const { secret: expiring } = await admin.createConsoleToken(ADMIN_IDENTITY, { accountId: own.id, name: 'ci', expiresAt: new Date(T0 + 1000).toISOString() });
      await expect(admin.authenticateToken(expiring)).resolves.toMatchObject({ kind: 'account' });
      setClock(T0 + 1000);
      const tokens = (await admin.listConsoleTokens(ADMIN_IDENTITY, own.id)).data;
      await admin.updateConsoleToken(ADMIN_IDENTITY, tokens.find(token => token.name === 'alice')!.id, { status: 'disabled' });
      for (const candidate of [expiring, secret, secret.slice(0, -1) + (secret.endsWith('x') ? 'y' : 'x')]) {
        const error = await gatewayErrorOfAsync(() => admin.authenticate({ authorization: `Bearer ${candidate}` }));
        expect([error.status, error.code, error.message]).toEqual([401, 'ADMIN_TOKEN_INVALID', 'The console token is not valid.']);
      }
    });

    it('refuses an API key of the account as a console login, saying what it was', async () => {
      const { admin, own } = await setUp();
      const { secret } = await admin.createKey(ADMIN_IDENTITY, { accountId: own.id, name: 'k' });
      for (const key of [secret, generateApiKey()]) {
        const error = await gatewayErrorOfAsync(() => admin.authenticateToken(key));
        expect([error.status, error.code, error.message]).toEqual([401, 'ADMIN_TOKEN_INVALID', 'The console token is not valid. An API key is not a console token.']);
      }
    });

    it('checkIdentity keeps a session only while its token is usable', async () => {
      const { admin, identity } = await setUp();
      await expect(admin.checkIdentity(identity)).resolves.toEqual(identity);
      await expect(admin.checkIdentity(ADMIN_IDENTITY)).resolves.toEqual(ADMIN_IDENTITY);
      await admin.updateConsoleToken(ADMIN_IDENTITY, (identity as { tokenId: string }).tokenId, { status: 'disabled' });
      expect((await gatewayErrorOfAsync(() => admin.checkIdentity(identity))).code).toBe('ADMIN_TOKEN_INVALID');
    });
    it('checkIdentity ends an admin session once its admin token is rotated away, and keeps the operator identity', async () => {
      const store = createMemoryAccountStore();
      const [retired, current] = [generateAdminToken(), generateAdminToken()];
      const before = createAdminService({ store, adminTokenDigests: [digestAdminToken(retired), digestAdminToken(current)] });
      const session = await before.authenticateToken(retired);
      await expect(before.checkIdentity(session)).resolves.toEqual(session);
      // The service as it is after the rotation: only the current token's digest is left.
      const after = createAdminService({ store, adminTokenDigests: [digestAdminToken(current)] });
      expect((await gatewayErrorOfAsync(() => after.checkIdentity(session))).code).toBe('ADMIN_TOKEN_INVALID');
      const kept = await after.authenticateToken(current);
      await expect(after.checkIdentity(kept)).resolves.toEqual(kept);
      await expect(after.checkIdentity(ADMIN_IDENTITY)).resolves.toEqual(ADMIN_IDENTITY);
    });
  });

  describe('an account identity', () => {
    it('sees its own account in me, listAccounts and getAccount, and another account answers 404 like a missing one', async () => {
      const { admin, identity, own, other, secret } = await setUp();
      const me = await admin.me(identity);
      expect(me).toMatchObject({ kind: 'account', account: { id: own.id, name: 'Own', balance: 5 }, token: { name: 'alice', status: 'active' } });
      expect(JSON.stringify(me)).not.toContain(secret.slice(19));
      expect((await admin.listAccounts(identity)).data.map(account => account.id)).toEqual([own.id]);
      expect((await admin.getAccount(identity, own.id)).id).toBe(own.id);
      const foreign = await gatewayErrorOfAsync(() => admin.getAccount(identity, other.id));
      const missing = await gatewayErrorOfAsync(() => admin.getAccount(identity, 'acct_missing'));
      expect([foreign.status, foreign.code, foreign.message]).toEqual([404, 'RESOURCE_NOT_FOUND', 'No such account.']);
      expect([missing.status, missing.code, missing.message]).toEqual([foreign.status, foreign.code, foreign.message]);
    });

    it('lists, creates and updates only its own account’s keys', async () => {
      const { admin, identity, own, other } = await setUp();
      const { key: otherKey } = await admin.createKey(ADMIN_IDENTITY, { accountId: other.id, name: 'theirs' });
      const { key: mine, secret } = await admin.createKey(identity, { name: 'mine' });
      expect(mine.accountId).toBe(own.id);
      expect(secret).toMatch(/^sbx-[A-Za-z0-9]{40}$/);
      expect((await admin.listKeys(identity)).data.map(key => key.id)).toEqual([mine.id]);
      expect((await admin.listKeys(identity, other.id)).data).toEqual([]);
      expect((await admin.updateKey(identity, mine.id, { status: 'disabled' })).status).toBe('disabled');

      const foreignUpdate = await gatewayErrorOfAsync(() => admin.updateKey(identity, otherKey.id, { status: 'disabled' }));
      const missingUpdate = await gatewayErrorOfAsync(() => admin.updateKey(identity, 'key_missing', { status: 'disabled' }));
      expect([foreignUpdate.status, foreignUpdate.message]).toEqual([404, 'No such key.']);
      expect([missingUpdate.status, missingUpdate.message]).toEqual([404, 'No such key.']);
      expect((await admin.listKeys(ADMIN_IDENTITY, other.id)).data[0]!.status).toBe('active');

      const foreignCreate = await gatewayErrorOfAsync(() => admin.createKey(identity, { accountId: other.id, name: 'sneaky' }));
      expect([foreignCreate.status, foreignCreate.message]).toEqual([404, 'No such account.']);
      expect((await admin.listKeys(ADMIN_IDENTITY, other.id)).data).toHaveLength(1);
    });

    it('cannot create or change accounts, change balances or read the upstreams: 403 ADMIN_TOKEN_REQUIRED', async () => {
      const { admin, identity, own, store } = await setUp();
      const calls = [
        () => admin.createAccount(identity, { name: 'x' }),
        () => admin.updateAccount(identity, own.id, { name: 'x' }),
        () => admin.adjustBalance(identity, own.id, { delta: 100 }),
        () => admin.listUpstreams(identity),
        () => admin.enableCredential(identity, 'simulator-messages', { credential: 'default' }),
      ];
      for (const call of calls) {
        const error = await gatewayErrorOfAsync(call);
        expect([error.status, error.code]).toEqual([403, 'ADMIN_TOKEN_REQUIRED']);
      }
      expect(await store.getAccount(own.id)).toMatchObject({ name: 'Own', balanceMicros: 5_000_000 });
      expect(await store.listConsoleTokens(own.id)).toHaveLength(1);
    });

    it('lists the routes its account or keys may use, without their group lists', async () => {
      const { admin, identity, own } = await setUp();
      expect((await admin.listRoutes(identity)).data.map(route => route.model)).toEqual(['open-model']);
      await admin.createKey(ADMIN_IDENTITY, { accountId: own.id, name: 'g', group: 'gold' });
      const listed = (await admin.listRoutes(identity)).data;
      expect(listed.map(route => route.model)).toEqual(['open-model', 'gold-model']);
      expect(listed[1]).toEqual({
        model: 'gold-model',
        description: null,
        interfaces: [{ name: 'responses', protocol: 'openai-responses', path: '/v1/responses' }],
        pricing: { inputPerMillion: 1, outputPerMillion: 2, cachedInputPerMillion: null, cacheWritePerMillion: null, cacheWrite1hPerMillion: null },
        contextTokens: 128_000,
        upstreamProtocol: 'anthropic-messages',
      });
      expect((await admin.listRoutes(ADMIN_IDENTITY)).data.map(route => [route.model, route.groups])).toEqual([
        ['open-model', null],
        ['gold-model', ['gold']],
        ['silver-model', ['silver']],
      ]);
    });
  });

  describe('the admin identity', () => {
    it('creates console tokens (secret once), lists them by account and disables them', async () => {
      const { admin, other } = await setUp();
      const { secret, token } = await admin.createConsoleToken(ADMIN_IDENTITY, { accountId: other.id, name: 'bob', expiresAt: '2027-01-01T00:00:00Z' });
      expect(token).toEqual({
        id: expect.stringMatching(/^ctok_/),
        accountId: other.id,
        name: 'bob',
        role: 'owner',
        prefix: secret.slice(0, 20),
        status: 'active',
        expiresAt: '2027-01-01T00:00:00.000Z',
        createdAt: expect.any(String),
      });
      const listed = await admin.listConsoleTokens(ADMIN_IDENTITY, other.id);
      expect(listed.data).toEqual([token]);
      expect(JSON.stringify(await admin.listConsoleTokens(ADMIN_IDENTITY))).not.toContain(secret.slice(19));
      expect((await admin.updateConsoleToken(ADMIN_IDENTITY, token.id, { status: 'disabled' })).status).toBe('disabled');
      const missing = await gatewayErrorOfAsync(() => admin.updateConsoleToken(ADMIN_IDENTITY, 'ctok_missing', { status: 'disabled' }));
      expect([missing.status, missing.message]).toEqual([404, 'No such console token.']);
      const noAccount = await gatewayErrorOfAsync(() => admin.createConsoleToken(ADMIN_IDENTITY, { accountId: 'acct_missing', name: 'x' }));
      expect([noAccount.status, noAccount.message]).toEqual([404, 'No such account.']);
    });

    it('is told it is the admin by me', async () => {
      const { admin, adminToken } = await setUp();
      const identity: ConsoleIdentity = await admin.authenticate({ authorization: `Bearer ${adminToken}` });
      expect(await admin.me(identity)).toEqual({ kind: 'admin', account: null, token: null, keyLimitCeiling: null });
    });
  });
});
