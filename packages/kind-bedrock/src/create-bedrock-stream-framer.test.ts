import { GatewayError, type SSEMessage, type StreamFramer } from '@signalbox/core';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { createBedrockStreamFramer } from './create-bedrock-stream-framer';
import { loadEventStreamCodec } from './load-event-stream-codec';

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

function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
}

async function framer(): Promise<StreamFramer> {
  return createBedrockStreamFramer(await loadEventStreamCodec());
}

/** The messages of a whole answer fed in chunks of `size` bytes, as SSE text. */
async function decode(bytes: Uint8Array, size: number): Promise<string> {
  const stream = await framer();
  const messages: SSEMessage[] = [];
  for (const chunk of chunksOf(bytes, size)) messages.push(...stream.push(chunk));
  messages.push(...stream.end());
  return messages.map(message => `event: ${message.event}\ndata: ${message.data}\n\n`).join('');
}

describe('createBedrockStreamFramer', () => {
  const stream = Buffer.concat(EVENTS.map(chunkFrame));
  const expected = EVENTS.map(event => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');

  it.each([1, 2, 3, 5, 13, 64, stream.length])('turns chunk frames cut every %i bytes into the same Messages stream messages', async size => {
    expect(await decode(stream, size)).toBe(expected);
  });

  it('hands on the frames a chunk completes at once, and keeps its own copy of a frame cut across chunks (the chunk may be reused)', async () => {
    const first = chunkFrame(EVENTS[0]);
    const cutAt = first.length + 10;
    const bytes = Buffer.concat([first, chunkFrame(EVENTS[1]), chunkFrame(EVENTS[2])]);
    const source = Buffer.from(bytes.subarray(0, cutAt));
    const stream = await framer();
    const messages = stream.push(source);
    source.fill(0);
    expect(messages.map(message => message.data)).toEqual([JSON.stringify(EVENTS[0])]);
    expect([...stream.push(bytes.subarray(cutAt)), ...stream.end()].map(message => message.event)).toEqual(['content_block_delta', 'message_stop']);
  });

  it.each([
    ['throttlingException', 'UPSTREAM_RATE_LIMITED', 429],
    ['serviceUnavailableException', 'UPSTREAM_OVERLOADED', 503],
    ['modelStreamErrorException', 'UPSTREAM_FAILED', 502],
    ['internalServerException', 'UPSTREAM_FAILED', 502],
    ['modelTimeoutException', 'UPSTREAM_TIMEOUT', 504],
    ['validationException', 'UPSTREAM_INVALID_REQUEST', 400],
    ['somethingNewException', 'UPSTREAM_FAILED', 502],
  ])('throws a %s frame as %s (%i) after the messages before it, wherever the chunks are cut', async (type, code, status) => {
    for (const size of [7, 1_000]) {
      const stream = await framer();
      const seen: SSEMessage[] = [];
      const failure = await (async () => {
        for (const chunk of chunksOf(Buffer.concat([chunkFrame(EVENTS[0]), exceptionFrame(type), chunkFrame(EVENTS[1])]), size)) seen.push(...stream.push(chunk));
        seen.push(...stream.end());
      })().catch((error: unknown) => error);
      expect(seen.map(message => message.event)).toEqual(['message_start']);
      expect(GatewayError.isInstance(failure) && [failure.code, failure.status, failure.message]).toEqual([code, status, `Bedrock ended the stream with ${type}: Bedrock says ${type}`]);
    }
  });

  it('throws an exception frame that comes first at once', async () => {
    const stream = await framer();
    expect(() => stream.push(exceptionFrame('throttlingException'))).toThrow('Bedrock ended the stream with throttlingException');
  });

  it('refuses a frame whose checksum does not match, an impossible length, an answer that ends inside a frame, and a chunk that is not a Messages event; reads a type that is not first', async () => {
    const malformed = { code: 'UPSTREAM_FAILED', message: 'Bedrock sent a malformed event-stream frame.' };
    const corrupted = Buffer.from(chunkFrame(EVENTS[0]));
    corrupted.writeUInt8(corrupted.readUInt8(corrupted.length - 6) ^ 0xff, corrupted.length - 6);
    await expect(decode(corrupted, 16)).rejects.toMatchObject(malformed);
    await expect(decode(Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]), 3)).rejects.toMatchObject(malformed);
    await expect(decode(Buffer.from(chunkFrame(EVENTS[0])).subarray(0, 40), 16)).rejects.toMatchObject(malformed);
    await expect(decode(Buffer.from(chunkFrame(EVENTS[0])).subarray(0, 2), 16)).rejects.toMatchObject(malformed);
    const typeLater = Buffer.from(chunkFrame({ index: 0, type: 'content_block_stop' }));
    expect(await decode(typeLater, 16)).toBe('event: content_block_stop\ndata: {"index":0,"type":"content_block_stop"}\n\n');
    const notAnEvent = Buffer.from(frame({ ':event-type': 'chunk', ':message-type': 'event' }, { bytes: Buffer.from('{"text":"hi"}').toString('base64') }));
    await expect(decode(notAnEvent, 16)).rejects.toMatchObject({ code: 'UPSTREAM_FAILED' });
  });
});
