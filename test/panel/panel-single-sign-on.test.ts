import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_IDENTITY, createAdminService, createMemoryAccountStore, generateAdminToken } from '@signalbox/accounts';
import request from 'supertest';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from '../../examples/server/src';
import { launchChromium, type Browser } from '../helpers/launch-chromium';
import { startOidcProvider, type OidcProvider, type ProviderUser } from '../helpers/start-oidc-provider';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { findFreePort, waitUntil } from '../helpers/throwaway-process';

const CLIENT_ID = 'signalbox-panel';
const CLIENT_SECRET = 'sso-client-secret-4e1f9a7c2b8d';
const SECRET_ENV = 'SIGNALBOX_TEST_SSO_CLIENT_SECRET';

/** Four people: an operator, a viewer of team A (both by group), an owner of team B (by email domain), and one nobody mapped. */
const USERS: Record<string, ProviderUser> = {
  alice: { email: 'alice@ops.example', email_verified: true, groups: ['gateway-admins'] },
  bob: { email: 'bob@team-a.example', email_verified: true, groups: ['team-a-viewers'] },
  dave: { email: 'dave@team-b.example', email_verified: true, groups: [] },
  carol: { email: 'carol@elsewhere.example', email_verified: true, groups: ['marketing'] },
};

type StartedLogin = { location: URL; cookie: string };

/** The embedded defaults and a `panel.sso` section that maps the provider's people to roles. */
function writeConfig(directory: string, options: { issuer: string; port: number; teamA: string; teamB: string }): string {
  const path = join(directory, 'gateway.json');
  const sso = {
    issuer: options.issuer,
    clientId: CLIENT_ID,
    clientSecretEnv: SECRET_ENV,
    redirectURL: `http://127.0.0.1:${options.port}/panel/api/sso/callback`,
    scopes: ['openid', 'email', 'groups'],
    providerName: 'Test provider',
    rules: [
      { claim: 'groups', includes: 'gateway-admins', role: 'admin' },
      { claim: 'groups', includes: 'team-a-viewers', role: 'viewer', accountId: options.teamA },
      { claim: 'email', emailDomain: 'team-b.example', role: 'owner', accountId: options.teamB },
    ],
  };
  writeFileSync(path, JSON.stringify({ ...createDefaultConfig(EMBEDDED_SIMULATOR), panel: { sso } }));
  return path;
}

/**
 * The panel's single sign-on against a real OpenID Connect provider (oidc-provider, PKCE required,
 * started as a program of its own on 127.0.0.1), in headless Chromium and over HTTP: each person
 * gets the role the claim mapping gives, or a refusal and no session; a callback that is not the
 * one its browser started (state, nonce, PKCE verifier) opens nothing.
 */
describe('the panel with single sign-on', () => {
  let provider: OidcProvider;
  let server: TestGateway;
  let browser: Browser;
  let directory: string;
  const accounts: { teamA?: string; teamB?: string } = {};
  const adminToken = generateAdminToken();
  const page = () => browser.page;
  const callbackPath = '/panel/api/sso/callback';

  beforeAll(async () => {
    provider = await startOidcProvider();
    const store = createMemoryAccountStore();
    const admin = createAdminService({ store, adminTokenDigests: [] });
    accounts.teamA = (await admin.createAccount(ADMIN_IDENTITY, { name: 'team-a', balance: 10 })).id;
    accounts.teamB = (await admin.createAccount(ADMIN_IDENTITY, { name: 'team-b', balance: 10 })).id;
    await admin.createKey(ADMIN_IDENTITY, { accountId: accounts.teamA, name: 'team-a ci' });
    directory = mkdtempSync(join(tmpdir(), 'signalbox-sso-'));
    const port = await findFreePort();
    const configPath = writeConfig(directory, { issuer: provider.issuer, port, teamA: accounts.teamA, teamB: accounts.teamB });
    // The provider answers 503 until it is configured: the gateway starts anyway and says why.
    server = await startTestGateway({ port, configPath, environment: { [SECRET_ENV]: CLIENT_SECRET }, storage: { kind: 'store', store, adminToken } });
    await waitUntil(() => server.audit.lines().some(line => line.includes('single sign-on provider is unavailable')), {
      what: () => 'the warning about the provider',
      exited: () => false,
    });
    await provider.configure({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectURI: `${server.url}${callbackPath}`, users: USERS });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close(1_000);
    await provider?.close();
    rmSync(directory, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(browser.consoleErrors.splice(0)).toEqual([]);
  });

  /** Signs `user` in at the provider from the panel's login page; the browser starts with no cookies. */
  async function signInThroughPanel(user: string): Promise<void> {
    await browser.context.clearCookies();
    await page().goto(`${server.url}/panel`);
    await page().getByRole('link', { name: 'Sign in with Test provider' }).click();
    await page().getByLabel('User').fill(user);
    await page().getByRole('button', { name: 'Sign in' }).click();
  }

  /** A login started over HTTP: the provider's authorization URL and the cookie that ties the callback to it. */
  async function startLogin(): Promise<StartedLogin> {
    const answer = await request(server.url).get('/panel/api/sso/login').expect(303);
    const cookie = String(answer.headers['set-cookie']).split(';')[0]!;
    return { location: new URL(answer.headers.location!), cookie };
  }

  /**
   * The query the provider sends back to the callback after `user` signs in at `authorizationURL`,
   * over HTTP with the provider's cookies kept from hop to hop; the callback itself is not called.
   */
  async function providerAnswer(authorizationURL: URL, user: string): Promise<string> {
    const cookies = new Map<string, string>();
    const callback = `${server.url}${callbackPath}`;
    let next = { url: authorizationURL.href, body: undefined as string | undefined };
    for (let hop = 0; hop < 10; hop += 1) {
      const answer = await fetch(next.url, {
        method: next.body === undefined ? 'GET' : 'POST',
        redirect: 'manual',
        headers: {
          cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(next.body !== undefined && { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        ...(next.body !== undefined && { body: next.body }),
      });
      for (const cookie of answer.headers.getSetCookie()) {
        const [name, value] = cookie.split(';')[0]!.split(/=(.*)/) as [string, string];
        if (value) cookies.set(name, value);
        else cookies.delete(name);
      }
      const location = answer.headers.get('location');
      if (location?.startsWith(callback)) return new URL(location).search;
      // The provider's sign-in form: posted back to its own address with the user's name.
      if (answer.status === 200 && next.body === undefined) next = { url: next.url, body: new URLSearchParams({ login: user }).toString() };
      else if (location) next = { url: new URL(location, next.url).href, body: undefined };
      else throw new Error(`the provider answered ${answer.status} at ${next.url}`);
    }
    throw new Error('the provider never sent the browser back');
  }

  /** The callback with `query`, as the browser holding `cookie` would call it. */
  const callBack = (query: string, cookie: string) => request(server.url).get(`${callbackPath}${query}`).set('cookie', cookie).expect(303);

  /** The error code a callback's redirect to the login page carries, and whether it opened a session. */
  function outcome(answer: request.Response): { code: string | null; session: boolean } {
    const location = new URL(answer.headers.location!, server.url);
    const cookies = ([] as string[]).concat(answer.headers['set-cookie'] ?? []);
    return { code: location.searchParams.get('sso_error'), session: cookies.some(cookie => /^signalbox_panel=[^;]+/.test(cookie)) };
  }

  const sessionOf = async () =>
    (await page().evaluate(`fetch('/panel/api/session').then(async r => [r.status, r.status === 204 ? {} : await r.json()])`)) as [number, Record<string, unknown>];

  it('offers single sign-on beside the console token on the login page', async () => {
    await page().goto(`${server.url}/panel`);
    await page().getByRole('link', { name: 'Sign in with Test provider' }).waitFor();
    await page().getByLabel('Console token').waitFor();
    await browser.screenshot('sso-login');
  });

  it('logs the admin group in through the provider (discovery tried again after the failed one at start) into the same session a console token opens', async () => {
    await signInThroughPanel('alice');
    await page().getByRole('heading', { name: 'Models' }).waitFor();
    expect(await page().locator('.who').textContent()).toBe('Admin console');
    await page().getByRole('link', { name: 'Upstreams' }).waitFor();
    const [cookie] = await browser.context.cookies(`${server.url}/panel`);
    expect(cookie).toMatchObject({ name: 'signalbox_panel', path: '/panel', httpOnly: true, sameSite: 'Strict', secure: false });
    const [status, session] = await sessionOf();
    const issuerHost = new URL(provider.issuer).host;
    expect([status, session.identity]).toEqual([200, { kind: 'admin', actor: `sso:${issuerHost}:alice` }]);
    expect(session.csrfToken).toEqual(expect.any(String));

    await page().getByRole('button', { name: 'Log out' }).click();
    await page().getByLabel('Console token').waitFor();
    expect((await request(server.url).get('/panel/api/session').set('cookie', `signalbox_panel=${cookie!.value}`)).status).toBe(401);
  });

  it("shows a viewer its account read only, and the panel refuses the viewer's change", async () => {
    await signInThroughPanel('bob');
    await page().getByRole('heading', { name: 'Models' }).waitFor();
    expect(await page().locator('.who').textContent()).toBe('Account: team-a (viewer)');
    const [, session] = await sessionOf();
    expect(session.identity).toEqual({ kind: 'account', accountId: accounts.teamA, role: 'viewer', actor: `sso:${new URL(provider.issuer).host}:bob` });
    await page().getByRole('link', { name: 'Keys' }).click();
    const row = page().locator('tr', { hasText: 'team-a ci' });
    await row.waitFor();
    expect(await row.locator('td').last().textContent()).toBe('Read only');
    expect(await page().getByRole('button', { name: /Create key|Disable|Expire/ }).count()).toBe(0);
    expect(await page().getByRole('link', { name: 'Upstreams' }).count()).toBe(0);
    await browser.screenshot('sso-viewer-keys');
    const refused = await page().evaluate(
      `fetch('/panel/api/keys', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': ${JSON.stringify(session.csrfToken)} }, body: '{"name":"viewer key"}' }).then(async r => [r.status, (await r.json()).error.code])`,
    );
    expect(refused).toEqual([403, 'CONSOLE_ROLE_FORBIDDEN']);
  });

  it('makes an owner of the account whose email domain a rule names, with the key form', async () => {
    await signInThroughPanel('dave');
    await page().getByRole('heading', { name: 'Models' }).waitFor();
    expect(await page().locator('.who').textContent()).toBe('Account: team-b');
    await page().getByRole('link', { name: 'Keys' }).click();
    await page().getByRole('button', { name: 'Create key' }).waitFor();
  });

  it('refuses a person no rule maps, with the reason and the request id, and opens no session', async () => {
    await signInThroughPanel('carol');
    await page().getByRole('heading', { name: 'Single sign-on refused' }).waitFor();
    expect(page().url()).toMatch(/\/panel\/login\?sso_error=SSO_REFUSED&request_id=req_\w+$/);
    const requestId = new URL(page().url()).searchParams.get('request_id')!;
    expect(await page().locator('.sso-refusal code').textContent()).toBe(requestId);
    expect((await browser.context.cookies(`${server.url}/panel`)).map(cookie => cookie.name)).not.toContain('signalbox_panel');
    expect((await sessionOf())[0]).toBe(204); // no session cookie: not logged in
    expect(server.audit.lines().some(line => line.includes(requestId) && line.includes('SSO_REFUSED'))).toBe(true);
    await browser.screenshot('sso-refused');
  });

  it('refuses a callback with the state of another login, while the login it belongs to still works, once', async () => {
    const mine = await startLogin();
    const other = await startLogin();
    const query = await providerAnswer(other.location, 'dave');
    expect(outcome(await callBack(query, mine.cookie))).toEqual({ code: 'SSO_LOGIN_FAILED', session: false });
    const right = await callBack(query, other.cookie);
    expect([right.headers.location, outcome(right).session]).toEqual(['/panel/models', true]);
    expect(outcome(await callBack(query, other.cookie))).toEqual({ code: 'SSO_LOGIN_FAILED', session: false });
  });

  it('refuses an ID token whose nonce is not the one the login sent', async () => {
    const mine = await startLogin();
    const forged = new URL(mine.location);
    forged.searchParams.set('nonce', 'a-nonce-the-gateway-never-sent');
    const answer = await callBack(await providerAnswer(forged, 'alice'), mine.cookie);
    expect(outcome(answer)).toEqual({ code: 'SSO_LOGIN_FAILED', session: false });
    const requestId = new URL(answer.headers.location!, server.url).searchParams.get('request_id')!;
    expect(server.audit.lines().find(line => line.includes(requestId))).toContain('nonce');
  });

  it('asks with PKCE (S256), which the provider requires, and a code bound to another challenge is refused at the exchange', async () => {
    const mine = await startLogin();
    expect(mine.location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(mine.location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(mine.cookie).toMatch(/^signalbox_panel_sso=[\w-]{43}$/);

    const withoutPKCE = new URL(mine.location);
    withoutPKCE.searchParams.delete('code_challenge');
    withoutPKCE.searchParams.delete('code_challenge_method');
    const refused = await fetch(withoutPKCE, { redirect: 'manual' });
    expect(new URL(refused.headers.get('location')!).searchParams.get('error_description')).toMatch(/requires PKCE/);

    const other = await startLogin();
    const swapped = new URL(mine.location);
    swapped.searchParams.set('code_challenge', other.location.searchParams.get('code_challenge')!);
    const answer = await callBack(await providerAnswer(swapped, 'alice'), mine.cookie);
    expect(outcome(answer)).toEqual({ code: 'SSO_LOGIN_FAILED', session: false });
    const requestId = new URL(answer.headers.location!, server.url).searchParams.get('request_id')!;
    expect(server.audit.lines().find(line => line.includes(requestId))).toContain('(invalid_grant)');
  });

  it('refuses a callback carrying the error the provider answered (a person it does not know)', async () => {
    const mine = await startLogin();
    const query = await providerAnswer(mine.location, 'mallory');
    expect(new URLSearchParams(query).get('error')).toBe('access_denied');
    expect(outcome(await callBack(query, mine.cookie))).toEqual({ code: 'SSO_LOGIN_FAILED', session: false });
  });

  it('sets the pending login cookie HttpOnly and SameSite=Lax on the callback path, and refuses a callback without it', async () => {
    const answer = await request(server.url).get('/panel/api/sso/login').expect(303);
    expect(String(answer.headers['set-cookie'])).toMatch(/^signalbox_panel_sso=[\w-]+; Path=\/panel\/api\/sso; Max-Age=600; HttpOnly; SameSite=Lax$/);
    const started = { location: new URL(answer.headers.location!) };
    expect(outcome(await callBack(await providerAnswer(started.location, 'alice'), 'unrelated=1'))).toEqual({ code: 'SSO_LOGIN_FAILED', session: false });
  });

  it('starts with an unreachable provider, says so, and sends a login to the login page with SSO_UNAVAILABLE', async () => {
    const closedPort = await findFreePort();
    const port = await findFreePort();
    const configPath = writeConfig(directory, { issuer: `http://127.0.0.1:${closedPort}`, port, teamA: accounts.teamA!, teamB: accounts.teamB! });
    const offline = await startTestGateway({ port, configPath, environment: { [SECRET_ENV]: CLIENT_SECRET } });
    try {
      const answer = await request(offline.url).get('/panel/api/sso/login').expect(303);
      expect(outcome(answer)).toEqual({ code: 'SSO_UNAVAILABLE', session: false });
      expect(offline.audit.lines().filter(line => line.includes('single sign-on provider is unavailable')).length).toBeGreaterThanOrEqual(2);
    } finally {
      await offline.close(1_000);
    }
  });
});
