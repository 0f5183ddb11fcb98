import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientAbortedError, GatewayError } from '@signalbox/core';
import { createUpstreamClient } from './create-upstream-client';
import { mapTransportError } from './map-transport-error';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function upstream(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Reads `body` to its end as text, one `next()` at a time. */
async function readAll(iterator: AsyncIterator<Uint8Array>): Promise<string> {
  let text = '';
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) text += Buffer.from(next.value).toString();
  return text;
}

describe('an upstream body read chunk by chunk', () => {
  it('gives every byte of a body written in pieces, then is done, and stays done', async () => {
    const pieces = ['data: {"a":', '1}\n\n', 'data: [DONE]\n', '\n'];
    const url = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const writeNext = (): void => void (pieces.length === 0 ? response.end() : response.write(pieces.shift(), () => setImmediate(writeNext)));
      writeNext();
    });
    const client = createUpstreamClient({ baseURL: url });
    const iterator = (await client.send({ path: '/stream', body: '{}' })).body[Symbol.asyncIterator]();
    expect(await readAll(iterator)).toBe('data: {"a":1}\n\ndata: [DONE]\n\n');
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    await client.close();
  });

  it('rejects once, as an upstream failure, when the upstream drops the connection mid-body, then is done', async () => {
    const url = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n', () => setImmediate(() => response.socket!.destroy()));
    });
    const client = createUpstreamClient({ baseURL: url });
    const iterator = (await client.send({ path: '/stream', body: '{}' })).body[Symbol.asyncIterator]();
    const failure = await readAll(iterator).catch((error: unknown) => error);
    expect(mapTransportError(failure)).toMatchObject({ code: 'UPSTREAM_FAILED' });
    expect(GatewayError.isInstance(mapTransportError(failure))).toBe(true);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    await client.close();
  });

  it('rejects a waiting read when the caller aborts, which the transport reads as the client going away', async () => {
    const url = await upstream((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n'); // and never ends
    });
    const client = createUpstreamClient({ baseURL: url });
    const controller = new AbortController();
    const iterator = (await client.send({ path: '/stream', body: '{}' }, controller.signal)).body[Symbol.asyncIterator]();
    expect(Buffer.from((await iterator.next()).value!).toString()).toBe('data: first\n\n');
    const waiting = iterator.next();
    controller.abort(new Error('The client closed the connection.'));
    const failure = await waiting.catch((error: unknown) => error);
    expect(mapTransportError(failure, controller.signal)).toBeInstanceOf(ClientAbortedError);
    await client.close();
  });

  it('lets an unfinished body go on return(): the stream is destroyed, its connection closed, and every later read is done', async () => {
    let upstreamSide: ServerResponse | undefined;
    const url = await upstream((_request, response) => {
      upstreamSide = response;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n'); // and never ends
    });
    const client = createUpstreamClient({ baseURL: url });
    const iterator = (await client.send({ path: '/stream', body: '{}' })).body[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    const closed = once(upstreamSide!, 'close');
    expect(await iterator.return!()).toEqual({ value: undefined, done: true });
    await closed;
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    await client.close();
  });
});
