import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import { GatewayError } from '@signalbox/core';
import { readLimitedBody } from './read-limited-body';

const MIB = 1024 * 1024;

/** A request whose body is `chunks`, sent without a Content-Length (as a chunked body is). */
function requestWithBody(chunks: Buffer[]): IncomingMessage {
  const request = Object.assign(Readable.from(chunks, { objectMode: false }), { headers: {}, complete: false });
  request.once('end', () => {
    request.complete = true;
  });
  return request as unknown as IncomingMessage;
}

describe('readLimitedBody with a decoder', () => {
  it('stops a gzip bomb (1 MiB that inflates to 1 GiB) with 413 once 2 MiB are decoded, having inflated little more than the limit', async () => {
    // Concatenated gzip members decode as one body: 100 members of 10 MiB of spaces each.
    const member = gzipSync(Buffer.alloc(10 * MIB, 0x20), { level: 9 });
    const bomb = Array.from({ length: 100 }, () => member);
    expect(member.length * bomb.length).toBeLessThan(2 * MIB);
    const stream = createGunzip();
    let inflated = 0;
    stream.on('data', (chunk: Buffer) => {
      inflated += chunk.length;
    });
    const reading = readLimitedBody(requestWithBody(bomb), { limitBytes: 2 * MIB, timeoutMs: 60_000 }, { encoding: 'gzip', stream });
    await expect(reading).rejects.toMatchObject({ code: 'REQUEST_TOO_LARGE', status: 413 });
    await new Promise(resolve => setImmediate(resolve));
    expect(stream.destroyed).toBe(true);
    // The decoder stopped within a few of its output chunks past the limit, not at 1 GiB.
    expect(inflated).toBeLessThan(3 * MIB);
  });

  it('resolves with the decoded bytes of a body under the limit', async () => {
    const json = Buffer.from('{"model":"signalbox-sim","input":"Count the freight cars"}');
    const body = await readLimitedBody(requestWithBody([gzipSync(json)]), { limitBytes: 1024, timeoutMs: 60_000 }, { encoding: 'gzip', stream: createGunzip() });
    expect(body.toString('utf8')).toBe(json.toString('utf8'));
  });

  it('rejects bytes that are not gzip with 400 INVALID_REQUEST naming the encoding', async () => {
    const reading = readLimitedBody(requestWithBody([Buffer.from('{"not":"gzip"}')]), { limitBytes: 1024, timeoutMs: 60_000 }, { encoding: 'gzip', stream: createGunzip() });
    await expect(reading).rejects.toThrow(GatewayError);
    await expect(reading).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: 'The request body does not decode as gzip, the Content-Encoding it was sent with.' });
  });
});
