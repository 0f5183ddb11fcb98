import { createHash } from 'node:crypto';
import { GatewayError, openKeyCredential, type SSEMessage, type StreamFramer, type UpstreamKind } from '@signalbox/core';
import { createArrayFrameSink, createTestEngine, readFixture, type ScriptedAnswer } from '../testing';

// A toy cloud in the shape of the ones kinds exist for: a path per model and per answer framing
// (the model ID percent-encoded), a body without `model`/`stream` and with its own version field, a
// signature made for each call over its final bytes (asynchronously), a session token learned at
// start, and streamed answers in length-prefixed binary frames that the kind's framer turns into SSE messages.

const SESSION_TOKEN = 'toy-session-token-Xq81mZr2Lp0aB7cD';
const modelId = 'vendor.claude:1';

/** Length-prefixed frames (4-byte big-endian length, then a Messages event's JSON), as the toy cloud streams. */
function framesOf(sse: string): Buffer {
  const events = sse
    .split('\n\n')
    .map(block => block.split('\n').find(line => line.startsWith('data: '))?.slice(6))
    .filter((data): data is string => data !== undefined);
  return Buffer.concat(
    events.map(data => {
      const payload = Buffer.from(data);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(payload.length);
      return Buffer.concat([length, payload]);
    }),
  );
}

/** The frames as SSE messages, one per complete frame, wherever the chunks were cut. */
function createToyFramer(): StreamFramer {
  let pending = Buffer.alloc(0);
  const complete = (): SSEMessage[] => {
    const messages: SSEMessage[] = [];
    while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
      const payload = pending.subarray(4, 4 + pending.readUInt32BE(0)).toString('utf8');
      pending = pending.subarray(4 + pending.readUInt32BE(0));
      const event = JSON.parse(payload) as { type: string };
      if (event.type === 'toy_exception') throw new GatewayError({ code: 'UPSTREAM_INVALID_REQUEST', message: 'The toy cloud refused the request.' });
      messages.push({ event: event.type, data: payload });
    }
    return messages;
  };
  return {
    push(chunk) {
      pending = Buffer.concat([pending, chunk]);
      return complete();
    },
    end: complete,
  };
}

const signatureOf = (url: string, body: string) => createHash('sha256').update(`POST\n${url}\n${body}`).digest('hex');

const toyKind: UpstreamKind = {
  name: 'toy-cloud',
  protocols: ['anthropic-messages'],
  checkAuth: auth => (auth === undefined || auth['type'] === 'signed' ? [] : ['type: must be "signed"']),
  open(opening) {
    return {
      path: call => `/model/${encodeURIComponent(call.model)}/${call.stream ? 'invoke-stream' : 'invoke'}`,
      prepareBody: ({ model: _model, stream: _stream, ...rest }) => ({ ...rest, toy_version: '2024-01-01' }),
      createStreamFramer: async () => createToyFramer(),
      openCredential(source) {
        if (source.auth === undefined) return openKeyCredential(source, opening.environment, { kind: 'header', header: 'x-toy-key' });
        opening.rememberSecret(SESSION_TOKEN);
        return {
          headers: {},
          secrets: [],
          authorize: async request => ({ 'x-toy-session': SESSION_TOKEN, 'x-toy-signature': signatureOf(request.url, request.body) }),
        };
      },
    };
  },
};

async function toyEngine(interfaces: string[], answers: readonly ScriptedAnswer[]) {
  return createTestEngine({
    kinds: [toyKind],
    upstreams: { cloud: { protocol: 'anthropic-messages', kind: 'toy-cloud', auth: { type: 'signed' }, answers } },
    routes: [{ model: 'client-model', interfaces, targets: [{ upstream: 'cloud', model: modelId }] }],
  });
}

describe('an upstream kind', () => {
  it('owns the path per model, the body after encoding and a signature over the bytes sent, and records its name', async () => {
    const test = await toyEngine(['responses'], [{ body: readFixture('messages-answer.json') }]);
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate({ model: 'client-model', input: 'Ferries?' }, new AbortController().signal);
    expect(output.kind).toBe('json');
    const [call] = test.calls;
    expect(call!.path).toBe('/model/vendor.claude%3A1/invoke');
    expect(call!.body).toMatchObject({ toy_version: '2024-01-01', max_tokens: expect.any(Number) });
    expect(call!.body).not.toHaveProperty('model');
    expect(call!.body).not.toHaveProperty('stream');
    const sentBytes = JSON.stringify(call!.body);
    expect(call!.headers['x-toy-signature']).toBe(signatureOf(`http://127.0.0.1:9/cloud${call!.path}`, sentBytes));
    const [record] = await test.recorded(1);
    expect(record!.upstreamKind).toBe('toy-cloud');
    expect(test.engine.secrets.scrub(`token ${SESSION_TOKEN}`)).toBe('token [redacted]');
  });

  it.each([1, 3, 7, 4096])('turns its binary frames into the protocol stream, passed through to a Messages client (chunks of %i bytes)', async chunkSize => {
    const frames = framesOf(readFixture('messages-text.sse'));
    const test = await toyEngine(['messages'], [{ byteChunks: chunksOfBytes(frames, chunkSize) }]);
    const exchange = await test.open('anthropic-messages');
    const output = await exchange.generate({ model: 'client-model', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] }, new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const sink = createArrayFrameSink();
    const outcome = await output.pipe(sink);
    expect(outcome.error).toBeUndefined();
    expect(test.calls[0]!.path).toBe('/model/vendor.claude%3A1/invoke-stream');
    const texts = sink.messages().flatMap(message => {
      const data = JSON.parse(message.data) as { delta?: { text?: string } };
      return data.delta?.text === undefined ? [] : [data.delta.text];
    });
    expect(texts.join('')).toBe('Grüße aus Oslo 🌍!');
    expect(sink.messages().at(-1)!.event).toBe('message_stop');
  });

  it('fails an attempt whose exception frame comes before the answer began, with the code the kind gave it', async () => {
    const exception = framesOf('data: {"type":"toy_exception"}\n\n');
    const test = await toyEngine(['messages'], [{ byteChunks: [exception] }]);
    const exchange = await test.open('anthropic-messages');
    const failure = await exchange
      .generate({ model: 'client-model', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] }, new AbortController().signal)
      .catch((error: unknown) => error);
    expect(GatewayError.isInstance(failure) && failure.code).toBe('UPSTREAM_INVALID_REQUEST');
  });

  it('refuses at start a kind no one gave, a protocol it does not serve, and auth settings it does not take', async () => {
    await expect(
      createTestEngine({
        kinds: [toyKind],
        upstreams: {
          unknown: { protocol: 'anthropic-messages', kind: 'cloud-nine' },
          chat: { protocol: 'openai-chat', kind: 'toy-cloud' },
          wrong: { protocol: 'anthropic-messages', kind: 'toy-cloud', auth: { type: 'password' } },
          plain: { protocol: 'anthropic-messages', auth: { type: 'signed' } },
        },
        routes: [{ model: 'client-model', interfaces: ['messages'], targets: [{ upstream: 'plain', model: 'm' }] }],
      }),
    ).rejects.toThrow(
      [
        "upstreams.unknown.kind: unknown kind 'cloud-nine' (known: toy-cloud)",
        "upstreams.chat.protocol: the toy-cloud kind serves anthropic-messages, not 'openai-chat'",
        'upstreams.wrong.auth: type: must be "signed"',
        'upstreams.plain.auth: only an upstream with a `kind` takes auth settings',
      ].join('\n  - '),
    );
  });
});

/** The bytes cut every `size` bytes. */
function chunksOfBytes(bytes: Buffer, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
}
