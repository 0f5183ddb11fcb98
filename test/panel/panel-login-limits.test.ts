import {
  ADMIN_IDENTITY,
  createAdminService,
  createMemoryAccountStore,
  digestAdminToken,
  generateAdminToken,
  type AdminService,
} from '@signalbox/accounts';
import { createPanel, type PanelOptions } from '@signalbox/panel';
import express from 'express';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';

const T0 = 1_767_225_600_000;
const MINUTE = 60_000;

type Login = { status: number; code?: string; retryAfter: string | null; cookie?: string };

/**
 * One tenant cannot log another out of the panel, nor flood it with sessions: sessions are capped
 * per console token (its own oldest ends), logins are limited per token and per address, and a
 * full panel refuses new logins rather than ending anyone's session.
 */
describe('panel logins: sessions capped per token, logins limited, a full panel refusing instead of evicting', () => {
  let admin: AdminService;
  let adminToken: string;
  const servers: LoopbackServer[] = [];
  let clock = T0;
  const now = () => clock;

  beforeAll(() => {
    adminToken = generateAdminToken();
    admin = createAdminService({ store: createMemoryAccountStore(), adminTokenDigests: [digestAdminToken(adminToken)], now });
  });
  beforeEach(() => {
    clock = T0;
  });
  afterAll(() => Promise.all(servers.map(server => server.close())));

  async function startPanel(options: Omit<PanelOptions, 'admin'>): Promise<string> {
    const app = express();
    app.set('trust proxy', 'loopback');
    app.use('/panel', createPanel({ admin, ...options }));
    const server = await listenOnLoopback(app);
    servers.push(server);
    return server.url;
  }

  async function consoleToken(name: string): Promise<string> {
    const account = await admin.createAccount(ADMIN_IDENTITY, { name, balance: 1 });
    return (await admin.createConsoleToken(ADMIN_IDENTITY, { accountId: account.id, name })).secret;
  }

  async function login(url: string, token: string, address = '203.0.113.1'): Promise<Login> {
    const response = await fetch(`${url}/panel/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, 'x-forwarded-for': address },
      body: JSON.stringify({ token }),
    });
    const body = (await response.json()) as { error?: { code: string } };
    const cookie = response.headers.get('set-cookie')?.split(';')[0];
    return { status: response.status, retryAfter: response.headers.get('retry-after'), ...(body.error && { code: body.error.code }), ...(cookie && { cookie }) };
  }

  async function sessionStatus(url: string, cookie: string | undefined): Promise<number> {
    const response = await fetch(`${url}/panel/api/session`, { headers: { cookie: cookie ?? '' } });
    await response.arrayBuffer();
    return response.status;
  }

  it("keeps the admin's session through a flood of another token's logins, which end only that token's own oldest sessions", async () => {
    const url = await startPanel({
      sessions: { maxSessions: 50, maxSessionsPerIdentity: 3, now },
      loginThrottle: { maxLoginsPerIdentity: 1_000, maxLoginsPerAddress: 1_000, now },
    });
    const tenant = await consoleToken('flooding-tenant');
    const neighbour = await consoleToken('neighbour');
    const adminLogin = await login(url, adminToken, '198.51.100.1');
    const neighbourLogin = await login(url, neighbour, '198.51.100.2');
    const flood: Login[] = [];
    for (let attempt = 0; attempt < 60; attempt++) flood.push(await login(url, tenant, `203.0.113.${attempt}`));
    expect(flood.every(answer => answer.status === 200)).toBe(true);
    expect([await sessionStatus(url, adminLogin.cookie), await sessionStatus(url, neighbourLogin.cookie)]).toEqual([200, 200]);
    const tenantStatuses = await Promise.all(flood.map(answer => sessionStatus(url, answer.cookie)));
    expect(tenantStatuses.slice(-3)).toEqual([200, 200, 200]);
    expect(tenantStatuses.slice(0, -3).every(status => status === 401)).toBe(true);
  });

  it('limits successful logins per console token, from any address, with 429 and Retry-After, leaving other tokens alone', async () => {
    const url = await startPanel({ loginThrottle: { maxLoginsPerIdentity: 3, windowMs: 5 * MINUTE, now }, sessions: { now } });
    const tenant = await consoleToken('busy-tenant');
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt++) statuses.push((await login(url, tenant, `203.0.113.${attempt}`)).status);
    expect(statuses).toEqual([200, 200, 200]);
    clock += MINUTE;
    const refused = await login(url, tenant, '203.0.113.99');
    expect([refused.status, refused.code, refused.retryAfter, refused.cookie]).toEqual([429, 'RATE_LIMITED', '240', undefined]);
    expect((await login(url, adminToken, '203.0.113.99')).status).toBe(200);
    clock += 4 * MINUTE;
    expect((await login(url, tenant, '203.0.113.99')).status).toBe(200);
  });

  it('limits successful logins per client address, whatever the token', async () => {
    const url = await startPanel({ loginThrottle: { maxLoginsPerAddress: 2, windowMs: 5 * MINUTE, now }, sessions: { now } });
    const [first, second, third] = await Promise.all([consoleToken('office-1'), consoleToken('office-2'), consoleToken('office-3')]);
    expect([(await login(url, first!, '192.0.2.7')).status, (await login(url, second!, '192.0.2.7')).status]).toEqual([200, 200]);
    const refused = await login(url, third!, '192.0.2.7');
    expect([refused.status, refused.code, refused.retryAfter]).toEqual([429, 'RATE_LIMITED', '300']);
    expect((await login(url, third!, '192.0.2.8')).status).toBe(200);
  });

  it('refuses a login with 429 PANEL_SESSIONS_FULL when the panel is full, logging no one out, until a session ends', async () => {
    const url = await startPanel({ sessions: { maxSessions: 3, ttlMs: 60 * MINUTE, now }, loginThrottle: { now } });
    const tokens = await Promise.all([consoleToken('full-1'), consoleToken('full-2'), consoleToken('full-3')]);
    const opened = [];
    for (const [index, token] of tokens.entries()) {
      opened.push(await login(url, token, `192.0.2.${index}`));
      clock += MINUTE;
    }
    const refused = await login(url, adminToken, '192.0.2.50');
    expect([refused.status, refused.code, refused.retryAfter, refused.cookie]).toEqual([429, 'PANEL_SESSIONS_FULL', String(57 * 60), undefined]);
    expect(await Promise.all(opened.map(answer => sessionStatus(url, answer.cookie)))).toEqual([200, 200, 200]);
    // One logs out: there is room again.
    const { cookie } = opened[0]!;
    const session = (await (await fetch(`${url}/panel/api/session`, { headers: { cookie: cookie! } })).json()) as { csrfToken: string };
    const out = await fetch(`${url}/panel/api/logout`, { method: 'POST', headers: { cookie: cookie!, origin: url, 'x-csrf-token': session.csrfToken } });
    expect(out.status).toBe(204);
    expect((await login(url, adminToken, '192.0.2.50')).status).toBe(200);
  });
});
