import { randomBytes } from 'node:crypto';
import { startExampleServer, type ExampleServer } from './start-example-server';

/** Ten wrong console tokens from one client address, through a proxy that names the address. */
async function failLogins(server: ExampleServer, address: string, times: number): Promise<number[]> {
  const host = new URL(server.url).host;
  const statuses: number[] = [];
  for (let attempt = 0; attempt < times; attempt += 1) {
    const response = await fetch(`${server.url}/panel/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, host, 'x-forwarded-for': address },
      body: JSON.stringify({ token: `sbx-console-${randomBytes(16).toString('hex')}` }),
    });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

describe('example server behind a proxy (SIGNALBOX_TRUST_PROXY)', () => {
  it('with trustProxy, throttles failed panel logins per forwarded client address, not per proxy', async () => {
    const server = await startExampleServer({ port: 0, trustProxy: 'loopback', storage: { kind: 'memory', adminToken: randomBytes(16).toString('hex') } });
    try {
      const first = await failLogins(server, '203.0.113.7', 11);
      expect(first.slice(0, 10).every(status => status === 401)).toBe(true);
      expect(first[10]).toBe(429);
      expect(await failLogins(server, '203.0.113.8', 1)).toEqual([401]);
    } finally {
      await server.close(0);
    }
  });

  it('without it, every client behind the proxy shares the proxy\'s address and its throttle', async () => {
    const server = await startExampleServer({ port: 0, storage: { kind: 'memory', adminToken: randomBytes(16).toString('hex') } });
    try {
      await failLogins(server, '203.0.113.7', 10);
      expect(await failLogins(server, '203.0.113.8', 1)).toEqual([429]);
    } finally {
      await server.close(0);
    }
  });
});

describe('example server: requests that are not API calls', () => {
  const adminToken = randomBytes(16).toString('hex');
  let server: ExampleServer;

  beforeAll(async () => {
    // Usage rows committed at the next turn, so the ledger can be read right after each answer.
    server = await startExampleServer({ port: 0, storage: { kind: 'memory', adminToken }, usageCommitDelayMs: 0 });
  });
  afterAll(() => server.close(0));

  async function ledgerRequestIds(): Promise<string[]> {
    const answer = await fetch(`${server.url}/admin/usage?limit=100`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { data: Array<{ requestId: string }> }).data.map(row => row.requestId);
  }

  it('redirects GET / to the panel, which a browser then shows', async () => {
    const redirect = await fetch(`${server.url}/`, { redirect: 'manual' });
    await redirect.arrayBuffer();
    expect([redirect.status, redirect.headers.get('location')]).toEqual([302, '/panel']);
    const followed = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
    expect(followed.url).toBe(`${server.url}/panel`);
    expect(followed.status).toBe(200);
    expect(followed.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await followed.text()).toContain('<title>');
  });

  it('answers a HEAD / probe with the redirect and no body', async () => {
    const probe = await fetch(`${server.url}/`, { method: 'HEAD', redirect: 'manual' });
    expect([probe.status, probe.headers.get('location')]).toEqual([302, '/panel']);
    expect((await probe.arrayBuffer()).byteLength).toBe(0);
  });

  it('records GET /, HEAD / and /favicon.ico in no ledger row, while an unknown /v1 path keeps its row', async () => {
    const before = await ledgerRequestIds();
    for (const method of ['GET', 'HEAD']) await (await fetch(`${server.url}/`, { method, redirect: 'manual' })).arrayBuffer();
    const favicon = await fetch(`${server.url}/favicon.ico`);
    expect(favicon.status).toBe(404);
    expect(((await favicon.json()) as { code: string }).code).toBe('ENDPOINT_NOT_FOUND');
    const faviconRequestId = favicon.headers.get('x-request-id');
    expect(faviconRequestId).toMatch(/^req_/);
    const api = await fetch(`${server.url}/v1/nope`, { method: 'POST' });
    await api.arrayBuffer();
    expect(api.status).toBe(404);
    const apiRequestId = api.headers.get('x-request-id')!;
    const after = await ledgerRequestIds();
    expect(after.filter(id => !before.includes(id))).toEqual([apiRequestId]);
    expect(after).not.toContain(faviconRequestId);
  });
});
