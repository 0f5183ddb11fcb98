import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { GatewayError } from '@signalbox/core';
import { createUpstreamClient, type UpstreamClient } from './create-upstream-client';

/** Bodies above this are refused by the upstream below as soon as their headers arrive. */
const REFUSED_ABOVE_BYTES = 256 * 1024;
/** Far more than the socket buffers of both ends hold, so most of it is still unsent when the refusal comes. */
const LARGE_BODY = 'x'.repeat(8 * 1024 * 1024);
/** The bound on a wait for response headers; only a request stuck behind an unsent body would reach it. */
const HEADERS_TIMEOUT_MS = 2_000;

type Refusal = 'answer-and-stop-reading' | 'close-mid-body';

/**
 * A raw HTTP/1.1 upstream on loopback. A request whose `content-length` is at most
 * `REFUSED_ABOVE_BYTES` is read whole and answered with its connection's number: 400 on the path
 * `/invalid`, else 200. A larger one
 * is refused mid-body: either answered 413 at once (keep-alive, no `connection: close`) while the
 * rest is left unread and the connection open, as some fronts do, or its connection is closed
 * without an answer.
 */
async function startRefusingUpstream(refusal: Refusal): Promise<{ url: string; connections: Socket[]; server: Server }> {
  const connections: Socket[] = [];
  const server = createServer(socket => {
    connections.push(socket);
    const number = connections.length;
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const headerEnd = pending.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(pending.subarray(0, headerEnd).toString('latin1'))?.[1]);
      if (length > REFUSED_ABOVE_BYTES) {
        pending = Buffer.alloc(0);
        if (refusal === 'close-mid-body') return void socket.destroy();
        socket.pause();
        return void socket.write('HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: 14\r\n\r\n{"refused":1}\n');
      }
      if (pending.length < headerEnd + 4 + length) return;
      const status = pending.subarray(0, headerEnd).toString('latin1').startsWith('POST /invalid ') ? '400 Bad Request' : '200 OK';
      pending = pending.subarray(headerEnd + 4 + length);
      const body = JSON.stringify({ connection: number });
      socket.write(`HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections, server };
}

describe('createUpstreamClient after an upstream refused a body mid-way', () => {
  const upstreams: Array<{ connections: Socket[]; server: Server }> = [];
  const clients: UpstreamClient[] = [];

  afterEach(async () => {
    await Promise.all(clients.splice(0).map(client => client.close().catch(() => undefined)));
    for (const { connections, server } of upstreams.splice(0)) {
      // A connection left paused would keep close() waiting.
      for (const socket of connections) socket.destroy();
      await new Promise(resolve => server.close(resolve));
    }
  });

  async function clientFor(refusal: Refusal) {
    const upstream = await startRefusingUpstream(refusal);
    upstreams.push(upstream);
    // One connection: the next request goes on the refused one unless the client closed it.
    const client = createUpstreamClient({ baseURL: upstream.url, connections: 1, timeoutMs: HEADERS_TIMEOUT_MS });
    clients.push(client);
    return { client, upstream };
  }

  it.each([
    ['far larger than the socket buffers hold', LARGE_BODY],
    ['small enough for the kernels to take whole', 'x'.repeat(2 * REFUSED_ABOVE_BYTES)],
  ])('closes a connection answered 413 to a body it left unread (%s): the next request is served at once on a new one', async (_size, body) => {
    const { client, upstream } = await clientFor('answer-and-stop-reading');
    const refused = await client.send({ path: '/v1/chat/completions', body });
    expect([refused.status, await refused.text()]).toEqual([413, '{"refused":1}\n']);

    const next = await client.send({ path: '/v1/chat/completions', body: '{"model":"m"}' });
    expect([next.status, JSON.parse(await next.text())]).toEqual([200, { connection: 2 }]);
    expect(upstream.connections).toHaveLength(2);
  });

  it('closes a connection whose body write failed, and serves the next request on a new one', async () => {
    const { client, upstream } = await clientFor('close-mid-body');
    const failure = await client.send({ path: '/v1/chat/completions', body: LARGE_BODY }).catch((error: unknown) => error);
    expect(GatewayError.isInstance(failure) && failure.code).toBe('UPSTREAM_FAILED');

    const next = await client.send({ path: '/v1/chat/completions', body: '{"model":"m"}' });
    expect([next.status, JSON.parse(await next.text())]).toEqual([200, { connection: 2 }]);
    expect(upstream.connections).toHaveLength(2);
  });

  it('keeps the connection after an error answer to a body of one socket write, and closes it after one to a larger body', async () => {
    const { client, upstream } = await clientFor('answer-and-stop-reading');
    const invalid = await client.send({ path: '/invalid', body: '{"model":"m"}' });
    expect([invalid.status, JSON.parse(await invalid.text())]).toEqual([400, { connection: 1 }]);
    const large = JSON.stringify({ text: 'y'.repeat(REFUSED_ABOVE_BYTES - 100) });
    const invalidLarge = await client.send({ path: '/invalid', body: large });
    expect([invalidLarge.status, JSON.parse(await invalidLarge.text())]).toEqual([400, { connection: 1 }]);
    const next = await client.send({ path: '/v1/chat/completions', body: '{"model":"m"}' });
    expect([next.status, JSON.parse(await next.text())]).toEqual([200, { connection: 2 }]);
    expect(upstream.connections).toHaveLength(2);
  });

  it('still reuses the connection after a large body the upstream read whole', async () => {
    const { client, upstream } = await clientFor('answer-and-stop-reading');
    const large = JSON.stringify({ text: 'y'.repeat(REFUSED_ABOVE_BYTES - 100) });
    for (let request = 0; request < 3; request += 1) {
      const answer = await client.send({ path: '/v1/chat/completions', body: large });
      expect([answer.status, JSON.parse(await answer.text())]).toEqual([200, { connection: 1 }]);
    }
    expect(upstream.connections).toHaveLength(1);
  });
});
