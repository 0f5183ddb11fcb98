import { GatewayError } from '@signalbox/core';
import { createArrayFrameSink, createTestEngine, readFixture, transportError, type TestUpstream } from '../testing';

// Client on Responses, upstreams on Messages and Chat: the translating path, where the commit point
// decides between an HTTP error (before any content) and the stream's own failure event (after).
const route = (...upstreams: string[]) => [
  {
    model: 'client-model',
    interfaces: ['responses'],
    targets: upstreams.map(upstream => ({ upstream, model: `${upstream}-model` })),
  },
];
const streamBody = { model: 'client-model', input: 'Say hello', stream: true };
const overloadedBeforeContent = { body: readFixture('messages-overloaded-before-content.sse') };

async function generateStream(upstreams: Record<string, TestUpstream>, targets: string[]) {
  const test = await createTestEngine({ upstreams, routes: route(...targets) });
  const exchange = await test.open('openai-responses');
  return { test, generating: exchange.generate(streamBody, new AbortController().signal) };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected generate to throw');
    },
    (error: unknown) => (GatewayError.isInstance(error) ? error : Promise.reject(error)),
  );

beforeEach(() => {
  // Backoff jitter off: the recorded delays are the policy's exact 250 ms, 500 ms.
  jest.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => jest.restoreAllMocks());

describe('the commit point of a stream', () => {
  it('throws the mapped 503 UPSTREAM_OVERLOADED when an error event follows the 200 before any content, after 3 attempts on the only target', async () => {
    const { test, generating } = await generateStream(
      { a: { protocol: 'anthropic-messages', answers: [overloadedBeforeContent, overloadedBeforeContent, overloadedBeforeContent] } },
      ['a'],
    );
    const failure = await failureOf(generating);
    expect(failure.code).toBe('UPSTREAM_OVERLOADED');
    expect(failure.status).toBe(503);
    expect(failure.upstream).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    expect(test.calls.map(call => call.upstream)).toEqual(['a', 'a', 'a']);
    expect(test.sleeps).toEqual([250, 500]);
    const [record] = await test.recorded();
    expect(record).toMatchObject({ status: 503, outcome: 'error', errorCode: 'UPSTREAM_OVERLOADED', attempts: 3, upstream: 'a', stream: true });
  });

  it('fails over to the next target when a retryable error event comes before any content, and streams its answer', async () => {
    const { test, generating } = await generateStream(
      {
        a: { protocol: 'anthropic-messages', answers: [overloadedBeforeContent] },
        b: { protocol: 'openai-chat', answers: [{ body: readFixture('chat-text-no-usage.sse'), chunkSize: 5 }] },
      },
      ['a', 'b'],
    );
    const output = await generating;
    expect(output.kind).toBe('stream');
    if (output.kind !== 'stream') return;
    const sink = createArrayFrameSink();
    const outcome = await output.pipe(sink);
    expect(outcome).toMatchObject({ error: undefined, clientAborted: false, finishReason: { unified: 'stop', raw: 'stop' } });
    const events = sink.messages();
    expect(events.map(message => message.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.filter(message => message.event === 'response.output_text.delta').map(message => JSON.parse(message.data).delta)).toEqual([
      'Héllo ',
      'wörld 👋',
    ]);
    expect(test.calls.map(call => call.upstream)).toEqual(['a', 'b']);
    expect(test.calls[1]!.body.model).toBe('b-model');
    expect(test.sleeps).toEqual([250]);
    const [record] = await test.recorded();
    expect(record).toMatchObject({ status: 200, outcome: 'completed', upstream: 'b', upstreamProtocol: 'openai-chat', attempts: 2 });
  });

  it('throws 502 UPSTREAM_FAILED without a retry when the body ends before any content (the model may have run)', async () => {
    const messageStartOnly = readFixture('messages-text.sse').split('\n\n')[0] + '\n\n';
    const { test, generating } = await generateStream(
      {
        a: { protocol: 'anthropic-messages', answers: [{ body: messageStartOnly }] },
        b: { protocol: 'anthropic-messages', answers: [{ body: readFixture('messages-text.sse') }] },
      },
      ['a', 'b'],
    );
    const failure = await failureOf(generating);
    expect(failure.code).toBe('UPSTREAM_FAILED');
    expect(failure.status).toBe(502);
    expect(failure.message).toBe('The upstream stream ended before its terminal event.');
    expect(test.calls.map(call => call.upstream)).toEqual(['a']);
    expect(test.sleeps).toEqual([]);
  });

  it('turns an error event after the first content into the Responses response.failed frame: pipe resolves, nothing is retried', async () => {
    const { test, generating } = await generateStream(
      {
        a: { protocol: 'anthropic-messages', answers: [{ body: readFixture('messages-overloaded-after-content.sse') }] },
        b: { protocol: 'anthropic-messages', answers: [{ body: readFixture('messages-text.sse') }] },
      },
      ['a', 'b'],
    );
    const output = await generating;
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const sink = createArrayFrameSink();
    const outcome = await output.pipe(sink);
    expect(outcome.error?.code).toBe('UPSTREAM_OVERLOADED');
    const events = sink.messages();
    expect(events.map(message => message.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.failed',
    ]);
    const failed = JSON.parse(events.at(-1)!.data);
    expect(failed.response.status).toBe('failed');
    expect(failed.response.error).toEqual({
      code: 'server_error',
      message: 'Upstream error: Overloaded',
      type: 'service_unavailable_error',
      param: null,
    });
    expect(failed.response.output[0].content[0].text).toBe('Once upon a');
    expect(test.calls.map(call => call.upstream)).toEqual(['a']);
    expect(test.upstream('b').remaining).toHaveLength(1);
    const [record] = await test.recorded();
    expect(record).toMatchObject({ status: 200, outcome: 'failed', errorCode: 'UPSTREAM_OVERLOADED', attempts: 1 });
  });

  it('turns a transport failure after the first content into the response.failed frame with UPSTREAM_FAILED', async () => {
    const frames = readFixture('messages-text.sse').split(/(?<=\n\n)/);
    const { test, generating } = await generateStream(
      {
        a: {
          protocol: 'anthropic-messages',
          answers: [{ chunks: frames.slice(0, 4), then: { transportError: transportError('UND_ERR_SOCKET') } }],
        },
      },
      ['a'],
    );
    const output = await generating;
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const sink = createArrayFrameSink();
    const outcome = await output.pipe(sink);
    expect(outcome.error?.code).toBe('UPSTREAM_FAILED');
    const events = sink.messages();
    expect(events.at(-2)?.event).toBe('response.output_text.delta');
    expect(events.at(-1)?.event).toBe('response.failed');
    expect(JSON.parse(events.at(-1)!.data).response.error).toMatchObject({
      code: 'server_error',
      message: 'The connection to the upstream failed (UND_ERR_SOCKET).',
    });
    const [record] = await test.recorded();
    expect(record).toMatchObject({ status: 200, outcome: 'failed', errorCode: 'UPSTREAM_FAILED' });
  });

  it('waits on drained() after each write the sink refuses, and still writes every frame', async () => {
    const { generating } = await generateStream(
      { a: { protocol: 'anthropic-messages', answers: [{ body: readFixture('messages-text.sse'), chunkSize: 3 }] } },
      ['a'],
    );
    const output = await generating;
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const sink = createArrayFrameSink({ backpressure: true });
    await output.pipe(sink);
    expect(sink.drains).toBe(sink.writes.length);
    expect(sink.messages().at(-1)?.event).toBe('response.completed');
  });
});
