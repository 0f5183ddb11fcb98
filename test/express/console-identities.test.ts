import request from 'supertest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

describe('account console tokens on the admin API', () => {
  let server: TestGateway;
  let own: { id: string };
  let other: { id: string };
  let token: { secret: string; token: { id: string; prefix: string } };
  beforeAll(async () => {
    server = await startTestGateway();
    own = (await request(server.url).post('/admin/accounts').set(admin()).send({ name: 'own', balance: 5 })).body;
    other = (await request(server.url).post('/admin/accounts').set(admin()).send({ name: 'other', balance: 5 })).body;
    token = (await request(server.url).post('/admin/console-tokens').set(admin()).send({ accountId: own.id, name: 'alice' })).body;
  });
  afterAll(() => server.close(1_000));

  const admin = () => ({ authorization: `Bearer ${server.adminToken}` });
  const account = () => ({ authorization: `Bearer ${token.secret}` });

  it('creates a console token whose secret is shown once and never listed', async () => {
    expect(token.secret).toMatch(/^sbx-console-[A-Za-z0-9]{40}$/);
    expect(token.token.prefix).toBe(token.secret.slice(0, 20));
    const listed = await request(server.url).get(`/admin/console-tokens?accountId=${own.id}`).set(admin());
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((entry: { id: string }) => entry.id)).toEqual([token.token.id]);
    expect(JSON.stringify(listed.body)).not.toContain(token.secret);
  });

  it('answers /admin/me with the account and /admin/accounts with only that account', async () => {
    const me = await request(server.url).get('/admin/me').set(account());
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'account', account: { id: own.id, name: 'own' }, token: { id: token.token.id } });
    const accounts = await request(server.url).get('/admin/accounts').set(account());
    expect(accounts.body.data.map((entry: { id: string }) => entry.id)).toEqual([own.id]);
    const adminMe = await request(server.url).get('/admin/me').set(admin());
    expect(adminMe.body).toEqual({ kind: 'admin', account: null, token: null, keyLimitCeiling: null });
  });

  it('answers another account exactly as a missing one: 404 with the same body shape', async () => {
    for (const path of [`/admin/accounts/${other.id}`, `/admin/accounts/${other.id}/balance-events`]) {
      const foreign = await request(server.url).get(path).set(account());
      const missing = await request(server.url).get(path.replace(other.id, 'acct_missing')).set(account());
      expect([foreign.status, foreign.body.code, foreign.body.error.message]).toEqual([404, 'RESOURCE_NOT_FOUND', 'No such account.']);
      expect([missing.status, missing.body.code, missing.body.error.message]).toEqual([404, 'RESOURCE_NOT_FOUND', 'No such account.']);
    }
    const theirs = (await request(server.url).post('/admin/keys').set(admin()).send({ accountId: other.id, name: 'theirs' })).body;
    const patched = await request(server.url).patch(`/admin/keys/${theirs.key.id}`).set(account()).send({ status: 'disabled' });
    expect([patched.status, patched.body.code, patched.body.error.message]).toEqual([404, 'RESOURCE_NOT_FOUND', 'No such key.']);
    const keys = await request(server.url).get(`/admin/keys?accountId=${other.id}`).set(account());
    expect([keys.status, keys.body.data]).toEqual([200, []]);
  });

  it('creates and disables its own keys, and the key works for generation', async () => {
    const created = await request(server.url).post('/admin/keys').set(account()).send({ name: 'laptop' });
    expect(created.status).toBe(201);
    expect(created.body.key.accountId).toBe(own.id);
    const call = () => request(server.url).post('/v1/responses').set({ authorization: `Bearer ${created.body.secret}` }).send({ model: 'signalbox-sim', input: 'hi' });
    expect((await call()).status).toBe(200);
    await request(server.url).patch(`/admin/keys/${created.body.key.id}`).set(account()).send({ status: 'disabled' }).expect(200);
    const refused = await call();
    expect([refused.status, refused.body.code]).toEqual([401, 'API_KEY_DISABLED']);
  });

  it('refuses admin-only calls with 403 ADMIN_TOKEN_REQUIRED', async () => {
    const calls = [
      request(server.url).post('/admin/accounts').set(account()).send({ name: 'x' }),
      request(server.url).patch(`/admin/accounts/${own.id}`).set(account()).send({ name: 'x' }),
      request(server.url).post(`/admin/accounts/${own.id}/balance`).set(account()).send({ delta: 1000 }),
      request(server.url).get('/admin/upstreams').set(account()),
      request(server.url).post('/admin/upstreams/simulator-messages/enable').set(account()).send({ credential: 'default' }),
    ];
    for (const response of await Promise.all(calls)) {
      expect([response.status, response.body.code]).toEqual([403, 'ADMIN_TOKEN_REQUIRED']);
    }
    const balance = await request(server.url).get(`/admin/accounts/${own.id}`).set(account());
    expect(balance.body.balanceMicros).toBeLessThanOrEqual(5_000_000);
  });

  it('lists the routes with exact model IDs, interfaces, pricing and upstream protocol', async () => {
    const routes = await request(server.url).get('/admin/routes').set(account());
    expect(routes.status).toBe(200);
    const sim = routes.body.data.find((route: { model: string }) => route.model === 'signalbox-sim');
    expect(sim.interfaces.map((entry: { path: string }) => entry.path).sort()).toEqual(['/v1/chat/completions', '/v1/messages', '/v1/responses', '/v1beta/models/{model}:generateContent']);
    expect(sim).toHaveProperty('pricing');
    expect(sim).toHaveProperty('contextTokens');
    expect(typeof sim.upstreamProtocol).toBe('string');
    expect(routes.body.data.map((route: { model: string }) => route.model)).toEqual(server.models);
  });

  it('keeps console tokens and API keys apart both ways', async () => {
    const tokenOnGateway = await request(server.url).post('/v1/responses').set(account()).send({ model: 'signalbox-sim', input: 'hi' });
    expect([tokenOnGateway.status, tokenOnGateway.body.code]).toEqual([401, 'API_KEY_INVALID']);
    expect(tokenOnGateway.body.error.message).toBe('A console token is not an API key. Create an API key in the account panel and send that.');
    expect(JSON.stringify(tokenOnGateway.body)).not.toContain(token.secret);
    const tokenAsMessagesKey = await request(server.url)
      .post('/v1/messages')
      .set({ 'x-api-key': token.secret, 'anthropic-version': '2023-06-01' })
      .send({ model: 'signalbox-sim', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect([tokenAsMessagesKey.status, tokenAsMessagesKey.body.error.type]).toEqual([401, 'authentication_error']);

    const { secret: apiKey } = (await request(server.url).post('/admin/keys').set(admin()).send({ accountId: own.id, name: 'k' })).body;
    const keyOnAdmin = await request(server.url).get('/admin/me').set({ authorization: `Bearer ${apiKey}` });
    expect([keyOnAdmin.status, keyOnAdmin.body.code]).toEqual([401, 'ADMIN_TOKEN_INVALID']);
    expect(keyOnAdmin.body.error.message).toBe('The console token is not valid. An API key is not a console token.');
  });

  it('stops opening the console at once when the admin disables the token', async () => {
    const { secret, token: created } = (await request(server.url).post('/admin/console-tokens').set(admin()).send({ accountId: own.id, name: 'short' })).body;
    await request(server.url).get('/admin/me').set({ authorization: `Bearer ${secret}` }).expect(200);
    const disabled = await request(server.url).patch(`/admin/console-tokens/${created.id}`).set(admin()).send({ status: 'disabled' });
    expect([disabled.status, disabled.body.status]).toEqual([200, 'disabled']);
    const refused = await request(server.url).get('/admin/me').set({ authorization: `Bearer ${secret}` });
    expect([refused.status, refused.body.code]).toEqual([401, 'ADMIN_TOKEN_INVALID']);
  });
});
