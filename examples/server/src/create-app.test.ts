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
