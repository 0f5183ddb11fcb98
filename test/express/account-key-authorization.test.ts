import request from 'supertest';
import { startAuthorizationGateway } from '../helpers/start-authorization-gateway';
import type { TestGateway } from '../helpers/start-test-gateway';

/** A one-line Chat Completions call with a key: the gateway's own answer to what the key may do. */
const chat = (server: TestGateway, key: string, model: string) =>
  request(server.url).post('/v1/chat/completions').set({ authorization: `Bearer ${key}` }).send({ model, messages: [{ role: 'user', content: 'hi' }] });

describe('what an account console token may do to its own keys, against the real gateway', () => {
  let server: TestGateway;
  let accountId: string;
  let token: string;
  beforeAll(async () => {
    server = await startAuthorizationGateway();
    const admin = { authorization: `Bearer ${server.adminToken}` };
    accountId = (await request(server.url).post('/admin/accounts').set(admin).send({ name: 'B', balance: 5, group: 'silver' })).body.id;
    token = (await request(server.url).post('/admin/console-tokens').set(admin).send({ accountId, name: 'b' })).body.secret;
  });
  afterAll(() => server.close(1_000));

  const asAdmin = () => ({ authorization: `Bearer ${server.adminToken}` });
  const asAccount = () => ({ authorization: `Bearer ${token}` });

  it('refuses a group the account grants itself (403 ADMIN_TOKEN_REQUIRED naming group); its keys stay out of other groups’ routes', async () => {
    const granted = await request(server.url).post('/admin/keys').set(asAccount()).send({ name: 'x', group: 'gold' });
    expect([granted.status, granted.body.code, granted.body.error.param]).toEqual([403, 'ADMIN_TOKEN_REQUIRED', 'group']);
    expect(granted.body.request_id).toBe(granted.headers['x-request-id']);
    expect((await request(server.url).get('/admin/keys').set(asAccount())).body.data).toEqual([]);

    const own = (await request(server.url).post('/admin/keys').set(asAccount()).send({ name: 'own' })).body;
    const refused = await chat(server, own.secret, 'gold-model');
    expect([refused.status, refused.body.code]).toEqual([403, 'GROUP_NOT_ALLOWED']);
    expect((await chat(server, own.secret, 'silver-model')).status).toBe(200);
    const operatorGrant = (await request(server.url).post('/admin/keys').set(asAdmin()).send({ accountId, name: 'gold', group: 'gold' })).body;
    expect((await chat(server, operatorGrant.secret, 'gold-model')).status).toBe(200);
    const widened = await request(server.url).patch(`/admin/keys/${own.key.id}`).set(asAccount()).send({ group: 'gold' });
    expect([widened.status, widened.body.code, widened.body.error.param]).toEqual([403, 'ADMIN_TOKEN_REQUIRED', 'group']);
    expect((await chat(server, own.secret, 'gold-model')).status).toBe(403);
  });

  it('refuses limits above the operator’s defaults (limits.default) and keeps the key unmade', async () => {
    const before = (await request(server.url).get('/admin/keys').set(asAccount())).body.data.length;
    const lifted = await request(server.url).post('/admin/keys').set(asAccount()).send({ name: 'big', limits: { concurrency: 1_000_000, queueSize: 100_000 } });
    expect([lifted.status, lifted.body.code, lifted.body.error.param]).toEqual([403, 'ADMIN_TOKEN_REQUIRED', 'limits.concurrency']);
    expect(lifted.body.error.message).toBe('limits.concurrency may be at most 64 on this account\'s keys; only the admin token may set more.');
    expect((await request(server.url).get('/admin/keys').set(asAccount())).body.data).toHaveLength(before);
    const within = await request(server.url).post('/admin/keys').set(asAccount()).send({ name: 'small', limits: { concurrency: 8 } });
    expect([within.status, within.body.key.limits]).toEqual([201, { concurrency: 8 }]);
  });

  it('cannot enable a key the admin disabled: 403 naming status, and the key stays refused by the gateway', async () => {
    const { secret, key } = (await request(server.url).post('/admin/keys').set(asAccount()).send({ name: 'stopped' })).body;
    const disabled = await request(server.url).patch(`/admin/keys/${key.id}`).set(asAdmin()).send({ status: 'disabled' });
    expect([disabled.status, disabled.body.disabledBy]).toEqual([200, 'operator']);
    const undone = await request(server.url).patch(`/admin/keys/${key.id}`).set(asAccount()).send({ status: 'active' });
    expect([undone.status, undone.body.code, undone.body.error.param]).toEqual([403, 'ADMIN_TOKEN_REQUIRED', 'status']);
    const refused = await chat(server, secret, 'open-model');
    expect([refused.status, refused.body.code]).toEqual([401, 'API_KEY_DISABLED']);

    // A key the account disabled itself, it may enable again.
    const paused = await request(server.url).patch(`/admin/keys/${key.id}`).set(asAdmin()).send({ status: 'active' });
    expect([paused.status, paused.body.disabledBy]).toEqual([200, null]);
    await request(server.url).patch(`/admin/keys/${key.id}`).set(asAccount()).send({ status: 'disabled' }).expect(200);
    const resumed = await request(server.url).patch(`/admin/keys/${key.id}`).set(asAccount()).send({ status: 'active' });
    expect([resumed.status, resumed.body.status]).toEqual([200, 'active']);
    expect((await chat(server, secret, 'open-model')).status).toBe(200);
  });

  it('lowers no ceiling below a key’s own limits: 409 KEY_LIMITS_ABOVE_CEILING naming the member, nothing changed', async () => {
    const { key } = (await request(server.url).post('/admin/keys').set(asAccount()).send({ name: 'nine', limits: { concurrency: 9 } })).body;
    const lowered = await request(server.url).patch(`/admin/accounts/${accountId}`).set(asAdmin()).send({ keyLimitCeiling: { concurrency: 8 } });
    expect([lowered.status, lowered.body.code, lowered.body.error.param]).toEqual([409, 'KEY_LIMITS_ABOVE_CEILING', 'keyLimitCeiling.concurrency']);
    expect(lowered.body.error.message).toBe(
      `The key ${key.id} of this account has limits.concurrency 9, where this ceiling allows at most 8; lower that key's limits first, or choose a higher ceiling.`,
    );
    expect((await request(server.url).get(`/admin/accounts/${accountId}`).set(asAdmin())).body.keyLimitCeiling).toBeNull();
    const me = await request(server.url).get('/admin/me').set(asAccount());
    expect(me.body.keyLimitCeiling).toEqual({ concurrency: 64, queueSize: 256, queueTimeoutMs: 30_000 });
  });
});
