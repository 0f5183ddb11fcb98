import OpenAI from 'openai';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

describe('the admin API (console token) and the keys it makes', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  const admin = () => ({ authorization: `Bearer ${server.adminToken}` });

  it('creates an account and a key whose secret is shown once and works at once', async () => {
    const account = await request(server.url).post('/admin/accounts').set(admin()).send({ name: 'team-a', balance: 5 });
    expect(account.status).toBe(201);
    expect(account.body).toMatchObject({ name: 'team-a', balance: 5, balanceMicros: 5_000_000, subscription: 'active' });

    const created = await request(server.url).post('/admin/keys').set(admin()).send({ accountId: account.body.id, name: 'laptop' });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^sbx-[A-Za-z0-9]{40}$/);
    expect(created.body.key.prefix).toBe(created.body.secret.slice(0, 12));
    expect(created.headers['cache-control']).toBe('no-store');

    const listed = await request(server.url).get(`/admin/keys?accountId=${account.body.id}`).set(admin());
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
    expect(listed.body.data.map((key: { name: string }) => key.name)).toEqual(['laptop']);

    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: created.body.secret, maxRetries: 0 });
    expect((await openai.responses.create({ model: 'signalbox-sim', input: 'hello from a new key' })).status).toBe('completed');
    await new Promise(resolve => setTimeout(resolve, 20));
    const after = await request(server.url).get('/admin/accounts').set(admin());
    const charged = after.body.data.find((entry: { id: string }) => entry.id === account.body.id);
    expect(charged.balanceMicros).toBeLessThan(5_000_000);
    expect(charged.reservedMicros).toBe(0);
  });

  it('disables and expires keys, with the right 401 and 403', async () => {
    const account = await request(server.url).post('/admin/accounts').set(admin()).send({ name: 'team-b', balance: 5 });
    const { body } = await request(server.url).post('/admin/keys').set(admin()).send({ accountId: account.body.id, name: 'ci' });
    const call = () => request(server.url).post('/v1/responses').set({ authorization: `Bearer ${body.secret}` }).send({ model: 'signalbox-sim', input: 'hi' });

    await request(server.url).patch(`/admin/keys/${body.key.id}`).set(admin()).send({ status: 'disabled' }).expect(200);
    expect((await call()).body.code).toBe('API_KEY_DISABLED');
    await request(server.url)
      .patch(`/admin/keys/${body.key.id}`)
      .set(admin())
      .send({ status: 'active', expiresAt: '2020-01-01T00:00:00Z' })
      .expect(200);
    const expired = await call();
    expect([expired.status, expired.body.code]).toEqual([403, 'API_KEY_EXPIRED']);
    await request(server.url).patch(`/admin/keys/${body.key.id}`).set(admin()).send({ expiresAt: null }).expect(200);
    expect((await call()).status).toBe(200);
  });

  it('keeps console tokens and API keys apart, both ways', async () => {
    const apiKeyOnAdmin = await request(server.url).get('/admin/keys').set({ authorization: `Bearer ${server.demoKey}` });
    expect([apiKeyOnAdmin.status, apiKeyOnAdmin.body.code]).toEqual([401, 'ADMIN_TOKEN_INVALID']);
    expect(apiKeyOnAdmin.body.error.message).toContain('An API key is not a console token');
    expect(JSON.stringify(apiKeyOnAdmin.body)).not.toContain(server.demoKey);

    const tokenOnGateway = await request(server.url).post('/v1/responses').set(admin()).send({ model: 'signalbox-sim', input: 'hi' });
    expect([tokenOnGateway.status, tokenOnGateway.body.code]).toEqual([401, 'API_KEY_INVALID']);
    expect(tokenOnGateway.body.error.message).toBe('A console token is not an API key. Create an API key in the account panel and send that.');
    expect(JSON.stringify(tokenOnGateway.body)).not.toContain(server.adminToken);

    const missing = await request(server.url).get('/admin/accounts');
    expect([missing.status, missing.body.code]).toEqual([401, 'ADMIN_TOKEN_MISSING']);
  });

  it('validates admin input with the field path and answers unknown ids with 404', async () => {
    const invalid = await request(server.url).post('/admin/keys').set(admin()).send({ accountId: 'acct_x', name: '', expiresAt: 'soon' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('INVALID_REQUEST');
    expect(invalid.body.error.message).toMatch(/name|expiresAt/);
    const unknown = await request(server.url).post('/admin/keys').set(admin()).send({ accountId: 'acct_missing', name: 'x' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
    const balance = await request(server.url).post('/admin/accounts/acct_missing/balance').set(admin()).send({ delta: 1 });
    expect(balance.status).toBe(404);
  });
});
