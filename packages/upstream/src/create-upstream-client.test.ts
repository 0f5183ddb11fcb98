import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError } from '@signalbox/core';
import { createUpstreamClient } from './create-upstream-client';
import { ClientAbortedError } from '@signalbox/core';

async function listen(server: Server): Promise<string> {
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('createUpstreamClient', () => {
  let server: Server;
  let seen: { path?: string; headers?: Record<string, unknown>; body?: string } = {};

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', chunk => (body += chunk));
      request.on('end', () => {
        seen = { path: request.url!, headers: request.headers, body };
        if (request.url?.includes('hang')) return; // never answers
        response.writeHead(201, { 'content-type': 'application/json', 'retry-after': '1' });
        response.end('{"ok":true}');
      });
    });
  });
  afterAll(() => server.close());

  it('posts the body under the base URL path with merged headers', async () => {
    const url = await listen(server);
    const client = createUpstreamClient({ baseURL: `${url}/v1`, headers: { authorization: 'Bearer upstream-secret' } });
    const response = await client.send({ path: '/responses', body: '{"a":1}', headers: { 'x-extra': 'y' } });
    expect(response.status).toBe(201);
    expect(response.headers['retry-after']).toBe('1');
    expect(JSON.parse(await response.text())).toEqual({ ok: true });
    expect(seen.path).toBe('/v1/responses');
    expect(seen.body).toBe('{"a":1}');
    expect(seen.headers).toMatchObject({ authorization: 'Bearer upstream-secret', 'x-extra': 'y', 'content-type': 'application/json' });
    await client.close();
  });

  it('reports a refused connection as UPSTREAM_UNREACHABLE', async () => {
    const closed = createServer();
    const url = await listen(closed);
    await new Promise(resolve => closed.close(resolve));
    const client = createUpstreamClient({ baseURL: url });
    const failure = await client.send({ path: '/x', body: '{}' }).catch(error => error);
    expect(GatewayError.isInstance(failure) && failure.code).toBe('UPSTREAM_UNREACHABLE');
    await client.close();
  });

  it('reports a silent upstream as UPSTREAM_TIMEOUT', async () => {
    const url = server.listening ? `http://127.0.0.1:${(server.address() as AddressInfo).port}` : await listen(server);
    const client = createUpstreamClient({ baseURL: url, timeoutMs: 100 });
    const failure = await client.send({ path: '/hang', body: '{}' }).catch(error => error);
    expect(GatewayError.isInstance(failure) && failure.code).toBe('UPSTREAM_TIMEOUT');
    await client.close();
  });

  it('reports the caller abort as ClientAbortedError, not an upstream fault', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = createUpstreamClient({ baseURL: url });
    const controller = new AbortController();
    const pending = client.send({ path: '/hang', body: '{}' }, controller.signal).catch(error => error);
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toBeInstanceOf(ClientAbortedError);
    await client.close();
  });
});
