import { gatewayErrorOfAsync } from '@signalbox/core/testing';
import { generateApiKey, keyPrefix, looksLikeApiKey } from '../keys/api-key-secrets';
import { createMemoryAccountStore } from '../store/create-memory-account-store';
import { digestAdminToken, generateAdminToken } from './admin-tokens';
import { ADMIN_IDENTITY } from './console-identity';
import { createAdminService } from './create-admin-service';

function setUp() {
  const token = generateAdminToken();
  const store = createMemoryAccountStore();
  const admin = createAdminService({ store, adminTokenDigests: [digestAdminToken(token)] });
  return { admin, store, token };
}

describe('createAdminService', () => {
  describe('authenticate', () => {
    it('accepts the admin token sent as a Bearer token as the admin identity', async () => {
      const { admin, token } = setUp();
      await expect(admin.authenticate({ authorization: `Bearer ${token}` })).resolves.toEqual({ kind: 'admin', actor: 'admin-token', tokenDigest: digestAdminToken(token) });
      await expect(admin.authenticate({ authorization: `bearer ${token}` })).resolves.toEqual({ kind: 'admin', actor: 'admin-token', tokenDigest: digestAdminToken(token) });
    });

    it('refuses a request without a Bearer token with 401 ADMIN_TOKEN_MISSING', async () => {
      const { admin, token } = setUp();
      for (const headers of [{}, { authorization: token }, { authorization: 'Bearer' }]) {
        const error = await gatewayErrorOfAsync(() => admin.authenticate(headers));
        expect([error.status, error.code]).toEqual([401, 'ADMIN_TOKEN_MISSING']);
      }
    });

    it('refuses an unknown console token with 401 ADMIN_TOKEN_INVALID', async () => {
      const { admin } = setUp();
      const error = await gatewayErrorOfAsync(() => admin.authenticate({ authorization: `Bearer ${generateAdminToken()}` }));
      expect([error.status, error.code]).toEqual([401, 'ADMIN_TOKEN_INVALID']);
      expect(error.message).toBe('The console token is not valid.');
    });

    it('refuses an API key in place of the console token and says that is what it was', async () => {
      const { admin } = setUp();
      const error = await gatewayErrorOfAsync(() => admin.authenticate({ authorization: `Bearer ${generateApiKey()}` }));
      expect([error.status, error.code]).toEqual([401, 'ADMIN_TOKEN_INVALID']);
      expect(error.message).toBe('The console token is not valid. An API key is not a console token.');
    });
  });

  describe('accounts', () => {
    it('creates an account with its balance in currency units, stored as micro-units', async () => {
      const { admin, store } = setUp();
      const account = await admin.createAccount(ADMIN_IDENTITY, { name: 'Team A', balance: 10.5 });
      expect(account).toMatchObject({
        name: 'Team A',
        balance: 10.5,
        balanceMicros: 10_500_000,
        reservedMicros: 0,
        subscription: 'active',
        group: null,
      });
      expect((await store.getAccount(account.id))?.balanceMicros).toBe(10_500_000);
    });

    it('refuses an unknown field with 400 INVALID_REQUEST naming it', async () => {
      const { admin } = setUp();
      const error = await gatewayErrorOfAsync(() => admin.createAccount(ADMIN_IDENTITY, { name: 'Team A', credit: 5 }));
      expect([error.status, error.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(error.message).toContain('credit');
    });

    it('adds and removes money with a signed delta', async () => {
      const { admin } = setUp();
      const { id } = await admin.createAccount(ADMIN_IDENTITY, { name: 'Team A', balance: 10 });
      expect((await admin.adjustBalance(ADMIN_IDENTITY, id, { delta: -2.25 })).balanceMicros).toBe(7_750_000);
      expect((await admin.adjustBalance(ADMIN_IDENTITY, id, { delta: 1 })).balance).toBe(8.75);
    });

    it('answers 404 RESOURCE_NOT_FOUND for an account that does not exist', async () => {
      const { admin } = setUp();
      const error = await gatewayErrorOfAsync(() => admin.updateAccount(ADMIN_IDENTITY, 'acct_missing', { name: 'x' }));
      expect([error.status, error.code, error.message]).toEqual([404, 'RESOURCE_NOT_FOUND', 'No such account.']);
    });
  });

  describe('keys', () => {
    it('shows a new key secret once, in the answer to createKey, and never in listings', async () => {
      const { admin, store } = setUp();
      const account = await admin.createAccount(ADMIN_IDENTITY, { name: 'Team A' });
      const { secret, key } = await admin.createKey(ADMIN_IDENTITY, { accountId: account.id, name: 'ci', allowedModels: ['m-1'] });
      expect(looksLikeApiKey(secret)).toBe(true);
      expect(key).toMatchObject({ accountId: account.id, name: 'ci', prefix: keyPrefix(secret), status: 'active', allowedModels: ['m-1'] });
      expect(JSON.stringify(key)).not.toContain(secret);
      expect(JSON.stringify(await admin.listKeys(ADMIN_IDENTITY, account.id))).not.toContain(secret);
      expect((await store.findKeyBySecret(secret))?.id).toBe(key.id);
    });

    it('refuses a key for an account that does not exist with 404 RESOURCE_NOT_FOUND', async () => {
      const { admin } = setUp();
      const error = await gatewayErrorOfAsync(() => admin.createKey(ADMIN_IDENTITY, { accountId: 'acct_missing', name: 'ci' }));
      expect([error.status, error.code, error.message]).toEqual([404, 'RESOURCE_NOT_FOUND', 'No such account.']);
    });

    it('refuses limits with a misspelt member with 400 INVALID_REQUEST at limits.request', async () => {
      const { admin } = setUp();
      const account = await admin.createAccount(ADMIN_IDENTITY, { name: 'Team A' });
      const error = await gatewayErrorOfAsync(() => admin.createKey(ADMIN_IDENTITY, { accountId: account.id, name: 'ci', limits: { request: 5 } }));
      expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', 'limits']);
      expect(error.message).toContain('request');
    });

    it('sets an expiry from an ISO 8601 time and clears it again with null', async () => {
      const { admin } = setUp();
      const account = await admin.createAccount(ADMIN_IDENTITY, { name: 'Team A' });
      const { key } = await admin.createKey(ADMIN_IDENTITY, { accountId: account.id, name: 'ci' });
      const expiring = await admin.updateKey(ADMIN_IDENTITY, key.id, { expiresAt: '2027-01-01T00:00:00Z', status: 'disabled' });
      expect([expiring.expiresAt, expiring.status]).toEqual(['2027-01-01T00:00:00.000Z', 'disabled']);
      expect((await admin.updateKey(ADMIN_IDENTITY, key.id, { expiresAt: null })).expiresAt).toBeNull();
    });
  });
});
