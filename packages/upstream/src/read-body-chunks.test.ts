import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createUpstreamClient } from './create-upstream-client';
import { readBodyChunks } from './read-body-chunks';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (chunk: Uint8Array) => new TextDecoder().decode(chunk);

/** A readable fed by the test, as undici's body is fed by its socket. */
const feedable = () => new Readable({ read() {} });

describe('readBodyChunks', () => {
  it('gives the chunks in order, those that came before their next() and those after, then the end', async () => {
    const body = feedable();
    const chunks = readBodyChunks(body);
    body.push(bytes('a'));
    body.push(bytes('b'));
    await new Promise(setImmediate);
    expect(text((await chunks.next()).value)).toBe('a');
    expect(text((await chunks.next()).value)).toBe('b');
    const waiting = chunks.next();
    body.push(bytes('c'));
    expect(text((await waiting).value)).toBe('c');
    body.push(null);
    expect(await chunks.next()).toEqual({ done: true, value: undefined });
    expect(await chunks.next()).toEqual({ done: true, value: undefined });
  });

  it('pauses the body while a chunk waits for its next(), and lets it flow once the chunk is taken', async () => {
    const body = feedable();
    const chunks = readBodyChunks(body);
    body.push(bytes('a'));
    await new Promise(setImmediate);
    expect(body.isPaused()).toBe(true);
    await chunks.next();
    await new Promise(setImmediate);
    expect(body.isPaused()).toBe(false);
  });

  it("rejects with the body's error, the chunks not yet taken dropped, as the body's own iterator does", async () => {
    const body = feedable();
    const chunks = readBodyChunks(body);
    const waiting = chunks.next();
    const failure = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    body.destroy(failure);
    await expect(waiting).rejects.toBe(failure);
    await expect(chunks.next()).rejects.toBe(failure);

    const lagging = feedable();
    const unread = readBodyChunks(lagging);
    lagging.push(bytes('a'));
    await new Promise(setImmediate);
    lagging.destroy(failure);
    await new Promise(setImmediate);
    await expect(unread.next()).rejects.toBe(failure);
  });

  it('rejects a body closed before its end without an error as a premature close', async () => {
    const body = new Readable({ read() {}, emitClose: true });
    const chunks = readBodyChunks(body);
    const waiting = chunks.next();
    body.destroy();
    await expect(waiting).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('destroys an unfinished body on return(), and leaves one read to its end alone', async () => {
    const unfinished = feedable();
    const chunks = readBodyChunks(unfinished);
    const waiting = chunks.next();
    expect(await chunks.return!()).toEqual({ done: true, value: undefined });
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(unfinished.destroyed).toBe(true);

    const finished = feedable();
    const read = readBodyChunks(finished);
    finished.push(null);
    expect(await read.next()).toEqual({ done: true, value: undefined });
    await read.return!();
    expect(finished.readableEnded).toBe(true);
  });

  it('iterates a body that is not a Node readable as it is', async () => {
    async function* generated() {
      yield bytes('x');
      yield bytes('y');
    }
    const chunks = readBodyChunks(generated());
    expect(text((await chunks.next()).value)).toBe('x');
    expect(text((await chunks.next()).value)).toBe('y');
    expect((await chunks.next()).done).toBe(true);
  });

  describe('over a real upstream connection', () => {
    let server: Server;
    let url: string;
    let answer: ServerResponse | undefined;
    beforeAll(async () => {
      server = createServer((request, response) => {
        request.resume();
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: 1\n\n');
        answer = response;
      });
      await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise(resolve => server.close(resolve)));

    it("reads undici's body chunk by chunk as the upstream writes it, to its end", async () => {
      const client = createUpstreamClient({ baseURL: url });
      const response = await client.send({ path: '/stream', body: '{}' });
      const chunks = readBodyChunks(response.body);
      expect(text((await chunks.next()).value)).toBe('data: 1\n\n');
      const waiting = chunks.next();
      answer!.write('data: 2\n\n');
      expect(text((await waiting).value)).toBe('data: 2\n\n');
      answer!.end();
      expect((await chunks.next()).done).toBe(true);
      await client.close();
    });

    it('rejects when the upstream connection breaks mid-body', async () => {
      const client = createUpstreamClient({ baseURL: url });
      const response = await client.send({ path: '/stream', body: '{}' });
      const chunks = readBodyChunks(response.body);
      await chunks.next();
      const waiting = chunks.next();
      answer!.socket!.destroy();
      await expect(waiting).rejects.toBeInstanceOf(Error);
      await client.close();
    });
  });
});
