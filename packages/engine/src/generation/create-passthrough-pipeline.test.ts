import { GatewayError } from '@signalbox/core';
import { createArrayFrameSink, createTestEngine, readFixture, transportError, type ScriptedAnswer } from '../testing';

// Same protocol on both sides: the client's body goes upstream as sent (but for `model`), and the
// upstream's frames come back as written (but for `model`), watched by the upstream codec's decoder.
const messagesText = readFixture('messages-text.sse');
const messagesFrames = messagesText.split(/(?<=\n\n)/);
const asClientModel = (text: string) => text.replaceAll('"model":"claude-upstream"', '"model":"client-model"');

const messagesBody = (stream: boolean) => ({
  model: 'client-model',
  max_tokens: 64,
  system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello' }] }],
  metadata: { user_id: 'user-1' },
  stop_sequences: ['###'],
  top_k: 5,
  stream,
});

async function messagesPassthrough(answer: ScriptedAnswer, stream = true) {
  const test = await createTestEngine({
    upstreams: { a: { protocol: 'anthropic-messages', answers: [answer] } },
    routes: [{ model: 'client-model', interfaces: ['messages'], targets: [{ upstream: 'a', model: 'claude-upstream' }] }],
  });
  const exchange = await test.open('anthropic-messages');
  return { test, generating: exchange.generate(messagesBody(stream), new AbortController().signal) };
}

async function pipeAll(answer: ScriptedAnswer) {
  const { test, generating } = await messagesPassthrough(answer);
  const output = await generating;
  if (output.kind !== 'stream') throw new Error('expected a stream');
  const sink = createArrayFrameSink();
  const outcome = await output.pipe(sink);
  const [record] = await test.recorded();
  return { test, sink, outcome, record: record! };
}

const errorFrame = (message: string) =>
  `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`;

describe('the pass-through path', () => {
  it('sends the client’s own Messages body upstream with only the model replaced', async () => {
    const { test, generating } = await messagesPassthrough({ body: readFixture('messages-answer.json') }, false);
    await generating;
    expect(test.calls).toHaveLength(1);
    expect(test.calls[0]!.path).toBe('/v1/messages');
    expect(test.calls[0]!.body).toStrictEqual({ ...messagesBody(false), model: 'claude-upstream' });
  });

  it('returns the upstream’s Messages JSON answer as sent, under the client’s model ID', async () => {
    const { generating } = await messagesPassthrough({ body: readFixture('messages-answer.json') }, false);
    const output = await generating;
    expect(output.kind).toBe('json');
    expect(output.kind === 'json' && output.body).toStrictEqual({ ...JSON.parse(readFixture('messages-answer.json')), model: 'client-model' });
  });

  it.each([
    ['one piece', undefined],
    ['1-byte pieces', 1],
    ['7-byte pieces', 7],
    ['64-byte pieces', 64],
  ])(
    'forwards every upstream frame byte for byte but for the model, with the body in %s',
    async (_pieces, chunkSize) => {
      const { sink, outcome, record } = await pipeAll({ body: messagesText, ...(chunkSize !== undefined && { chunkSize }) });
      expect(sink.text()).toBe(asClientModel(messagesText));
      expect(outcome).toMatchObject({ error: undefined, finishReason: { unified: 'stop', raw: 'end_turn' } });
      expect(record).toMatchObject({ status: 200, outcome: 'completed', usage: { inputTokens: 21, outputTokens: 7 } });
    },
  );

  it('replaces the model in every Chat chunk and forwards everything else as sent', async () => {
    const chatText = readFixture('chat-text-no-usage.sse');
    const test = await createTestEngine({
      upstreams: { c: { protocol: 'openai-chat', answers: [{ body: chatText, chunkSize: 11 }] } },
      routes: [{ model: 'client-model', interfaces: ['chat'], targets: [{ upstream: 'c', model: 'gpt-upstream' }] }],
    });
    const exchange = await test.open('openai-chat');
    const body = { model: 'client-model', messages: [{ role: 'user', content: 'Say hello' }], stream: true };
    const output = await exchange.generate(body, new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const sink = createArrayFrameSink();
    await output.pipe(sink);
    expect(test.calls[0]!.body).toStrictEqual({ ...body, model: 'gpt-upstream' });
    expect(sink.text()).toBe(chatText.replaceAll('"model":"gpt-upstream"', '"model":"client-model"'));
  });

  it('splices the client’s model into Chat chunks byte for byte, wherever the upstream body is cut into pieces', async () => {
    const chunk = (fields: string) => `data: {"id":"c1","object":"chat.completion.chunk","created":1,${fields}}\n\n`;
    const chatText =
      chunk('"model" : "gpt-upstream","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]') +
      // Content that spells out a model member, with escaped quotes and backslashes, is content.
      chunk(String.raw`"model":"gpt-upstream","choices":[{"index":0,"delta":{"content":"{\"model\":\"evil\"} \\\"model\\\""},"finish_reason":null}]`) +
      // A chunk without a model, and one whose model is not a string, are forwarded as sent.
      chunk('"choices":[{"index":0,"delta":{"content":" \\u00e9"},"finish_reason":null}]') +
      chunk('"model":null,"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]') +
      chunk('"model":"gpt-\\u0075pstream","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}') +
      'data: [DONE]\n\n';
    const expected = chatText
      .replace('"model" : "gpt-upstream"', '"model" : "client-model"')
      .replace('"model":"gpt-upstream"', '"model":"client-model"')
      .replace('"model":"gpt-\\u0075pstream"', '"model":"client-model"');
    for (let chunkSize = 1; chunkSize <= chatText.length; chunkSize += chunkSize < 24 ? 1 : 37) {
      const test = await createTestEngine({
        upstreams: { c: { protocol: 'openai-chat', answers: [{ body: chatText, chunkSize }] } },
        routes: [{ model: 'client-model', interfaces: ['chat'], targets: [{ upstream: 'c', model: 'gpt-upstream' }] }],
      });
      const exchange = await test.open('openai-chat');
      const output = await exchange.generate({ model: 'client-model', messages: [{ role: 'user', content: 'Hi' }], stream: true }, new AbortController().signal);
      if (output.kind !== 'stream') throw new Error('expected a stream');
      const sink = createArrayFrameSink();
      const outcome = await output.pipe(sink);
      expect({ chunkSize, text: sink.text() }).toEqual({ chunkSize, text: expected });
      expect(outcome.error).toBeUndefined();
    }
  });

  const notJSON = 'event: proxy_status\ndata: <html><body><h1>502 Bad Gateway</h1></body></html>\n\n';
  it.each([
    ['a known event', 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{bad json\n\n', false],
    ['an event name no codec knows', notJSON, false],
    ['an event name no codec knows, in one piece with the frames after it', notJSON, true],
  ])('ends a stream with a frame that is not JSON (%s) after the first content with the Messages error frame (UPSTREAM_FAILED), not a crash', async (_name, malformed, onePiece) => {
    const frames = [...messagesFrames.slice(0, 4), malformed, ...messagesFrames.slice(4)];
    const { sink, outcome, record } = await pipeAll(onePiece ? { body: frames.join('') } : { chunks: frames });
    expect(outcome.error?.code).toBe('UPSTREAM_FAILED');
    expect(outcome.error?.status).toBe(502);
    expect(outcome.error?.message).toBe('The upstream sent malformed JSON in a stream event.');
    const lastFrame = sink.messages().at(-1)!;
    expect(lastFrame.event).toBe('error');
    expect(JSON.parse(lastFrame.data)).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'The upstream sent malformed JSON in a stream event.' },
    });
    // The malformed frame itself is never forwarded; nothing after it is either.
    expect(sink.text()).toBe(
      asClientModel(messagesFrames.slice(0, 4).join('')) + errorFrame('The upstream sent malformed JSON in a stream event.'),
    );
    expect(record).toMatchObject({ status: 200, outcome: 'failed', errorCode: 'UPSTREAM_FAILED' });
  });

  it('refuses a malformed message_start (before any content) with 502 UPSTREAM_FAILED, never a 500', async () => {
    const { test, generating } = await messagesPassthrough({
      body: 'event: message_start\ndata: {"type":"message_start","message":{bad json\n\n',
    });
    const failure = await generating.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(GatewayError.isInstance(failure) && failure.code).toBe('UPSTREAM_FAILED');
    expect(GatewayError.isInstance(failure) && failure.status).toBe(502);
    const [record] = await test.recorded();
    expect(record).toMatchObject({ status: 502, outcome: 'error', errorCode: 'UPSTREAM_FAILED' });
  });

  it('ends a stream cut before message_stop with the Messages error frame after everything forwarded', async () => {
    const cut = messagesFrames.slice(0, 6);
    const { sink, outcome, record } = await pipeAll({ chunks: cut });
    expect(outcome.error?.code).toBe('UPSTREAM_FAILED');
    expect(sink.text()).toBe(asClientModel(cut.join('')) + errorFrame('The upstream stream ended before its terminal event.'));
    expect(record).toMatchObject({ status: 200, outcome: 'failed', errorCode: 'UPSTREAM_FAILED' });
  });

  it('ends a stream whose connection breaks mid-body with the Messages error frame naming the transport failure', async () => {
    const sent = messagesFrames.slice(0, 5);
    const { sink, outcome } = await pipeAll({ chunks: sent, then: { transportError: transportError('UND_ERR_SOCKET') } });
    expect(outcome.error?.code).toBe('UPSTREAM_FAILED');
    expect(sink.text()).toBe(asClientModel(sent.join('')) + errorFrame('The connection to the upstream failed (UND_ERR_SOCKET).'));
  });
});
