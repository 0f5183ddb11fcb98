import { createAdminService, digestAdminToken, generateAdminToken } from '@signalbox/accounts';
import { createPanel } from '@signalbox/panel';
import express from 'express';
import request from 'supertest';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

describe('the panel at /panel: sessions, CSRF checks and security headers', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  const origin = () => server.url;
  const asAdmin = () => ({ authorization: `Bearer ${server.adminToken}` });
  const login = async () => {
    const answer = await request(server.url)
      .post('/panel/api/login')
      .set('origin', origin())
      .send({ token: server.adminToken });
    expect(answer.status).toBe(200);
    const cookie = String(answer.headers['set-cookie']).split(';')[0]!;
    return {
      cookie,
      csrfToken: answer.body.csrfToken as string,
      setCookie: String(answer.headers['set-cookie']),
    };
  };

  it('serves the page with a strict Content-Security-Policy, no inline script or style and no token', async () => {
    const page = await request(server.url).get('/panel/usage');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CSP);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('<script type="module" src="/panel/assets/panel.js"></script>');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|https?:\/\//);
    const script = await request(server.url).get('/panel/assets/panel.js');
    expect([script.status, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(script.text).not.toMatch(/https?:\/\/(?!www\.w3\.org)[a-z]/i);
  });

  it('opens a session with an HttpOnly, SameSite=Strict cookie on /panel that expires, and never echoes the token', async () => {
    const answer = await request(server.url)
      .post('/panel/api/login')
      .set('origin', origin())
      .send({ token: server.adminToken });
    expect(answer.status).toBe(200);
    const cookie = String(answer.headers['set-cookie']);
    expect(cookie).toMatch(
      /^signalbox_panel=[A-Za-z0-9_-]{43}; Path=\/panel; Max-Age=28800; HttpOnly; SameSite=Strict$/,
    );
    expect(answer.body).toMatchObject({
      identity: { kind: 'admin', actor: 'admin-token' },
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(JSON.stringify(answer.body) + cookie).not.toContain(server.adminToken);
    expect(answer.headers['cache-control']).toBe('no-store');
    // The identity the page gets is exactly the kind: nothing derived from the token (its digest) either.
    expect(answer.body.identity).toEqual({ kind: 'admin', actor: 'admin-token' });
    const current = await request(server.url).get('/panel/api/session').set('cookie', cookie.split(';')[0]!);
    expect([current.status, current.body.identity]).toEqual([200, { kind: 'admin', actor: 'admin-token' }]);
  });

  it('refuses a wrong token, an API key and a login posted from another origin, without a cookie', async () => {
    const wrong = await request(server.url)
      .post('/panel/api/login')
      .set('origin', origin())
      .send({ token: generateAdminToken() });
    expect([wrong.status, wrong.body.error.code, wrong.headers['set-cookie']]).toEqual([
      401,
      'ADMIN_TOKEN_INVALID',
      undefined,
    ]);
    const apiKey = await request(server.url)
      .post('/panel/api/login')
      .set('origin', origin())
      .send({ token: server.demoKey });
    expect([apiKey.status, apiKey.body.error.code]).toEqual([401, 'ADMIN_TOKEN_INVALID']);
    const foreign = await request(server.url)
      .post('/panel/api/login')
      .set('origin', 'http://attacker.example')
      .send({ token: server.adminToken });
    expect([foreign.status, foreign.body.error.code, foreign.headers['set-cookie']]).toEqual([
      403,
      'PANEL_REQUEST_FORBIDDEN',
      undefined,
    ]);
  });

  it('logs in from a plain form post and sends the browser to the Models page', async () => {
    const answer = await request(server.url)
      .post('/panel/api/login')
      .set('origin', origin())
      .type('form')
      .send({ token: server.adminToken });
    expect([answer.status, answer.headers.location]).toEqual([303, '/panel/models']);
    expect(String(answer.headers['set-cookie'])).toContain('HttpOnly; SameSite=Strict');
  });

  it('answers data only within a session, with Cache-Control: no-store', async () => {
    const missing = await request(server.url).get('/panel/api/keys');
    expect([missing.status, missing.body.error.code]).toEqual([401, 'PANEL_SESSION_MISSING']);
    const forged = await request(server.url)
      .get('/panel/api/keys')
      .set('cookie', 'signalbox_panel=not-a-session');
    expect(forged.status).toBe(401);
    const { cookie } = await login();
    const keys = await request(server.url).get('/panel/api/keys').set('cookie', cookie);
    expect([keys.status, keys.headers['cache-control']]).toEqual([200, 'no-store']);
    expect(keys.body.data.length).toBeGreaterThan(0);
  });

  it('answers the page\'s check on load with 204 and no body when the browser holds no session cookie; a stale cookie is still a 401', async () => {
    const none = await request(server.url).get('/panel/api/session');
    expect([none.status, none.text, none.headers['cache-control']]).toEqual([204, '', 'no-store']);
    const stale = await request(server.url).get('/panel/api/session').set('cookie', 'signalbox_panel=not-a-session');
    expect([stale.status, stale.body.error.code]).toEqual([401, 'PANEL_SESSION_MISSING']);
  });

  it('refuses a change without the session CSRF token, with a wrong one, from another origin or another site', async () => {
    const { cookie, csrfToken } = await login();
    const [account] = (await request(server.url).get('/panel/api/accounts').set('cookie', cookie)).body.data;
    const create = (headers: Record<string, string>) =>
      request(server.url)
        .post('/panel/api/keys')
        .set({ cookie, ...headers })
        .send({ accountId: account.id, name: 'from-test' });
    const refusals = await Promise.all([
      create({ origin: origin() }),
      create({ origin: origin(), 'x-csrf-token': `${csrfToken.slice(0, -1)}${csrfToken.endsWith('A') ? 'B' : 'A'}` }),
      create({ origin: 'http://attacker.example', 'x-csrf-token': csrfToken }),
      create({ 'sec-fetch-site': 'cross-site', 'x-csrf-token': csrfToken }),
      create({ 'sec-fetch-site': 'same-site', 'x-csrf-token': csrfToken }),
    ]);
    expect(refusals.map(answer => [answer.status, answer.body.error.code])).toEqual(
      Array(5).fill([403, 'PANEL_REQUEST_FORBIDDEN']),
    );
    const accepted = await create({
      origin: origin(),
      'sec-fetch-site': 'same-origin',
      'x-csrf-token': csrfToken,
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.secret).toMatch(/^sbx-[A-Za-z0-9]{40}$/);
  });

  it('ends the session on logout: the cookie is cleared and no longer opens anything', async () => {
    const { cookie, csrfToken } = await login();
    const out = await request(server.url)
      .post('/panel/api/logout')
      .set({ cookie, origin: origin(), 'x-csrf-token': csrfToken });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toBe(
      'signalbox_panel=; Path=/panel; Max-Age=0; HttpOnly; SameSite=Strict',
    );
    expect((await request(server.url).get('/panel/api/keys').set('cookie', cookie)).status).toBe(401);
  });

  it('ends an account session as soon as its console token is disabled', async () => {
    const account = await request(server.url)
      .post('/admin/accounts')
      .set(asAdmin())
      .send({ name: 'team-revoked', balance: 1 })
      .expect(201);
    const token = await request(server.url)
      .post('/admin/console-tokens')
      .set(asAdmin())
      .send({ accountId: account.body.id, name: 'laptop' })
      .expect(201);
    const opened = await request(server.url)
      .post('/panel/api/login')
      .set('origin', origin())
      .send({ token: token.body.secret });
    expect([opened.status, opened.body.identity]).toEqual([
      200,
      { kind: 'account', accountId: account.body.id, tokenId: token.body.token.id, role: 'owner', actor: 'console:laptop' },
    ]);
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    expect((await request(server.url).get('/panel/api/keys').set('cookie', cookie)).status).toBe(200);

    await request(server.url)
      .patch(`/admin/console-tokens/${token.body.token.id}`)
      .set(asAdmin())
      .send({ status: 'disabled' })
      .expect(200);
    const after = await request(server.url).get('/panel/api/keys').set('cookie', cookie);
    expect([after.status, after.body.error.code]).toEqual([401, 'ADMIN_TOKEN_INVALID']);
    expect(String(after.headers['set-cookie'])).toContain('signalbox_panel=; Path=/panel; Max-Age=0');
    const again = await request(server.url).get('/panel/api/keys').set('cookie', cookie);
    expect([again.status, again.body.error.code]).toEqual([401, 'PANEL_SESSION_MISSING']);
  });

  it('marks the cookie Secure when the page is served over HTTPS', async () => {
    const app = express();
    app.set('trust proxy', 'loopback');
    app.use(
      '/console',
      createPanel({
        admin: createAdminService({
          store: server.store,
          adminTokenDigests: [digestAdminToken(server.adminToken)],
        }),
      }),
    );
    const answer = await request(app)
      .post('/console/api/login')
      .set({ 'x-forwarded-proto': 'https', host: 'gateway.example', origin: 'https://gateway.example' })
      .send({ token: server.adminToken });
    expect(answer.status).toBe(200);
    expect(String(answer.headers['set-cookie'])).toMatch(
      /; Path=\/console; Max-Age=28800; HttpOnly; SameSite=Strict; Secure$/,
    );
  });

  it('answers 429 with Retry-After to an address past its failed logins, even with the right token, and not to another address', async () => {
    const app = express();
    app.set('trust proxy', 'loopback');
    const panel = createPanel({
      admin: createAdminService({ store: server.store, adminTokenDigests: [digestAdminToken(server.adminToken)] }),
      loginThrottle: { maxFailures: 3, now: () => 1_767_225_600_000 },
    });
    app.use('/panel', panel);
    const attempt = (token: string, address: string) =>
      request(app).post('/panel/api/login').set({ host: 'gateway.test', origin: 'http://gateway.test', 'x-forwarded-for': address }).send({ token });
    for (let failure = 0; failure < 3; failure++) expect((await attempt(generateAdminToken(), '203.0.113.7')).status).toBe(401);
    const throttled = await attempt(server.adminToken, '203.0.113.7');
    expect([throttled.status, throttled.body.error.code, throttled.headers['retry-after'], throttled.headers['set-cookie']]).toEqual([429, 'RATE_LIMITED', '300', undefined]);
    expect((await attempt(server.adminToken, '203.0.113.8')).status).toBe(200);
  });
});
