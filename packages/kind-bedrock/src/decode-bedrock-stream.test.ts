import { GatewayError } from '@signalbox/core';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { decodeBedrockStream } from './decode-bedrock-stream';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const EVENTS = [
  { type: 'message_start', message: { id: 'msg_1', role: 'assistant', content: [] } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Grüße aus Oslo 🌍!' } },
  { type: 'message_stop' },
];

function frame(headers: Record<string, string>, body: unknown): Uint8Array {
  return codec.encode({
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }])),
    body: fromUtf8(JSON.stringify(body)),
  });
}

const chunkFrame = (event: unknown) => frame({ ':event-type': 'chunk', ':message-type': 'event', ':content-type': 'application/json' }, { bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: 'abc' });
const exceptionFrame = (type: string) => frame({ ':exception-type': type, ':message-type': 'exception', ':content-type': 'application/json' }, { message: `Bedrock says ${type}` });

async function* chunksOf(bytes: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

async function decode(bytes: Buffer, size: number): Promise<string> {
  let text = '';
  for await (const chunk of decodeBedrockStream(chunksOf(bytes, size))) text += Buffer.from(chunk).toString('utf8');
  return text;
}

describe('decodeBedrockStream', () => {
  const stream = Buffer.concat(EVENTS.map(chunkFrame));
  const expected = EVENTS.map(event => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');

  it.each([1, 2, 5, 13, 64, stream.length])('turns chunk frames cut every %i bytes into the same Messages SSE', async size => {
    expect(await decode(stream, size)).toBe(expected);
  });

  it.each([
    ['throttlingException', 'UPSTREAM_RATE_LIMITED', 429],
    ['serviceUnavailableException', 'UPSTREAM_OVERLOADED', 503],
    ['modelStreamErrorException', 'UPSTREAM_FAILED', 502],
    ['internalServerException', 'UPSTREAM_FAILED', 502],
    ['validationException', 'UPSTREAM_INVALID_REQUEST', 400],
    ['somethingNewException', 'UPSTREAM_FAILED', 502],
  ])('throws a %s frame as %s (%i) after the events before it', async (type, code, status) => {
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const chunk of decodeBedrockStream(chunksOf(Buffer.concat([chunkFrame(EVENTS[0]), exceptionFrame(type)]), 7))) seen.push(Buffer.from(chunk).toString('utf8'));
    })().catch((error: unknown) => error);
    expect(seen).toHaveLength(1);
    expect(GatewayError.isInstance(failure) && [failure.code, failure.status, failure.message]).toEqual([code, status, `Bedrock ended the stream with ${type}: Bedrock says ${type}`]);
  });

  it('refuses a frame whose checksum does not match, an answer that ends inside a frame, and a chunk that is not a Messages event; reads a type that is not first', async () => {
    const corrupted = Buffer.from(chunkFrame(EVENTS[0]));
    corrupted.writeUInt8(corrupted.readUInt8(corrupted.length - 6) ^ 0xff, corrupted.length - 6);
    await expect(decode(corrupted, 16)).rejects.toMatchObject({ code: 'UPSTREAM_FAILED', message: 'Bedrock sent a malformed event-stream frame.' });
    await expect(decode(Buffer.from(chunkFrame(EVENTS[0])).subarray(0, 40), 16)).rejects.toMatchObject({ code: 'UPSTREAM_FAILED' });
    const typeLater = Buffer.from(chunkFrame({ index: 0, type: 'content_block_stop' }));
    expect(await decode(typeLater, 16)).toBe('event: content_block_stop\ndata: {"index":0,"type":"content_block_stop"}\n\n');
    const notAnEvent = Buffer.from(frame({ ':event-type': 'chunk', ':message-type': 'event' }, { bytes: Buffer.from('{"text":"hi"}').toString('base64') }));
    await expect(decode(notAnEvent, 16)).rejects.toMatchObject({ code: 'UPSTREAM_FAILED' });
  });
});
