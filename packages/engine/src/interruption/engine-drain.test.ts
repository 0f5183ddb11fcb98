import { setImmediate as nextTurn } from 'node:timers/promises';
import { GatewayError } from '@signalbox/core';
import type { GenerationOutput } from '../generation/generation-output';
import { createArrayFrameSink, createTestEngine, readFixture, type ArrayFrameSink, type ScriptedAnswer, type TestEngine } from '../testing';

// Prices of 1 and 2 micros per input and output token make every charge easy to check by hand.
const pricing = { inputPerMillion: 1, outputPerMillion: 2 };
const messagesFrames = readFixture('messages-text.sse').split(/(?<=\n\n)/);
// message_start, content_block_start, ping and the first text delta ('Grüße aus '): past the commit point.
const cutAfterFirstDelta: ScriptedAnswer = { chunks: messagesFrames.slice(0, 4), then: 'hang' };
// message_start only: the answer has not begun.
const cutBeforeContent: ScriptedAnswer = { chunks: messagesFrames.slice(0, 1), then: 'hang' };

/** The protocols whose clients ask for a stream in the body, as these engine-level tests send it. */
type BodyStreamedProtocol = 'openai-responses' | 'openai-chat' | 'anthropic-messages';

const streamBodies: Record<BodyStreamedProtocol, object> = {
  'openai-responses': { model: 'client-model', input: 'Say hello', stream: true },
  'openai-chat': { model: 'client-model', messages: [{ role: 'user', content: 'Say hello' }], stream: true },
  'anthropic-messages': { model: 'client-model', max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }], stream: true },
};

/** One priced route on a Messages upstream scripted with `answers`, open on every interface. */
function drainEngine(answers: readonly ScriptedAnswer[]) {
  return createTestEngine({
    upstreams: { a: { protocol: 'anthropic-messages', answers } },
    routes: [
      {
        model: 'client-model',
        interfaces: ['responses', 'messages', 'chat'],
        targets: [{ upstream: 'a', model: 'claude-upstream' }],
        pricing,
      },
    ],
  });
}

/** Starts piping a stream on `protocol` and waits until its first text has reached the sink. */
async function pipingStream(test: TestEngine, protocol: BodyStreamedProtocol) {
  const exchange = await test.open(protocol);
  const output: GenerationOutput = await exchange.generate(streamBodies[protocol], new AbortController().signal);
  if (output.kind !== 'stream') throw new Error('expected a stream');
  const sink = createArrayFrameSink();
  const piping = output.pipe(sink);
  while (!sink.text().includes('Grüße aus ')) await nextTurn();
  return { sink, piping };
}

const lastEventOf = (sink: ArrayFrameSink) => sink.messages().at(-1)!;

describe('engine.drain: shutdown ends open streams with their terminal error event, recorded as interrupted', () => {
  it('lets a stream that is still open run until the grace is over, then ends it with response.failed carrying SHUTTING_DOWN', async () => {
    const test = await drainEngine([cutAfterFirstDelta]);
    const { sink, piping } = await pipingStream(test, 'openai-responses');
    const draining = test.engine.drain(1_000);
    test.timers.advance(999);
    await nextTurn();
    expect(test.records).toHaveLength(0);
    test.timers.advance(1);
    const outcome = await piping;
    await draining;
    expect(outcome).toMatchObject({ interrupted: true, clientAborted: false, error: { code: 'SHUTTING_DOWN', status: 503 } });
    const last = lastEventOf(sink);
    expect(last.event).toBe('response.failed');
    expect(JSON.parse(last.data).response.error).toMatchObject({
      type: 'service_unavailable_error',
      message: 'The gateway is shutting down; retry the request.',
    });
  });

  it.each([
    ['anthropic-messages', 'error', { type: 'error', error: { type: 'api_error', message: 'The gateway is shutting down; retry the request.' } }],
    ['openai-chat', undefined, { error: { message: 'The gateway is shutting down; retry the request.', type: 'service_unavailable_error', param: null, code: 'shutting_down' } }],
  ] as const)('ends a %s stream with its own terminal error frame', async (protocol, event, data) => {
    const test = await drainEngine([cutAfterFirstDelta]);
    const { sink, piping } = await pipingStream(test, protocol);
    const draining = test.engine.drain(0);
    test.timers.advance(0);
    await Promise.all([piping, draining]);
    const last = lastEventOf(sink);
    expect(last.event).toBe(event);
    expect(JSON.parse(last.data)).toMatchObject(data);
  });

  it('records the cut stream once as interrupted with SHUTTING_DOWN, bills what was streamed, and releases its hold before drain resolves', async () => {
    const test = await drainEngine([cutAfterFirstDelta]);
    const { piping } = await pipingStream(test, 'openai-responses');
    const draining = test.engine.drain(0);
    test.timers.advance(0);
    await draining;
    await piping;
    // The record and the hold are settled by the time drain resolves, with no extra turn.
    expect(test.records).toHaveLength(1);
    // The upstream never sent its closing counts: billed on the estimate, ceil('Say hello'.length / 4) = 3 input tokens.
    const outputTokens = Math.ceil('Grüße aus '.length / 4);
    const charged = 3 * 1 + outputTokens * 2;
    expect(test.records[0]).toMatchObject({
      status: 200,
      outcome: 'interrupted',
      errorCode: 'SHUTTING_DOWN',
      usage: { inputTokens: 3, outputTokens, estimated: true },
      costMicros: charged,
    });
    expect(await test.account()).toMatchObject({ balanceMicros: test.openingBalanceMicros - charged, reservedMicros: 0 });
  });

  it('answers a request still before its commit point with 503 SHUTTING_DOWN, recorded as interrupted, charging nothing', async () => {
    const test = await drainEngine([cutBeforeContent]);
    const exchange = await test.open('openai-responses');
    const generating = exchange.generate(streamBodies['openai-responses'], new AbortController().signal).catch((error: unknown) => error);
    while (test.calls.length === 0) await nextTurn();
    const draining = test.engine.drain(0);
    test.timers.advance(0);
    const failure = await generating;
    await draining;
    expect(GatewayError.isInstance(failure) && [failure.status, failure.code, failure.retryable]).toEqual([503, 'SHUTTING_DOWN', true]);
    expect(test.calls[0]!.signal?.aborted).toBe(true);
    expect(test.records).toEqual([expect.objectContaining({ status: 503, outcome: 'interrupted', errorCode: 'SHUTTING_DOWN', costMicros: 0 })]);
    expect(await test.account()).toMatchObject({ balanceMicros: test.openingBalanceMicros, reservedMicros: 0 });
  });

  it('refuses a generation that arrives while draining with 503 SHUTTING_DOWN without calling the upstream', async () => {
    const test = await drainEngine([cutAfterFirstDelta]);
    const { piping } = await pipingStream(test, 'openai-responses');
    const draining = test.engine.drain(1_000);
    const late = await test.open('openai-responses');
    const failure = await late.generate(streamBodies['openai-responses'], new AbortController().signal).catch((error: unknown) => error);
    expect(GatewayError.isInstance(failure) && [failure.status, failure.code]).toEqual([503, 'SHUTTING_DOWN']);
    expect(test.calls).toHaveLength(1);
    test.timers.advance(1_000);
    await Promise.all([piping, draining]);
    expect(test.records.map(record => [record.status, record.outcome, record.errorCode])).toEqual([
      [503, 'interrupted', 'SHUTTING_DOWN'],
      [200, 'interrupted', 'SHUTTING_DOWN'],
    ]);
  });

  it('resolves at once, cancelling its grace, when every open request ends by itself within it', async () => {
    const test = await drainEngine([{ body: readFixture('messages-text.sse') }]);
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate(streamBodies['openai-responses'], new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const draining = test.engine.drain(10_000);
    const outcome = await output.pipe(createArrayFrameSink());
    await draining;
    expect(outcome).toMatchObject({ interrupted: false, error: undefined, finishReason: { unified: 'stop' } });
    expect(test.records[0]).toMatchObject({ status: 200, outcome: 'completed' });
    expect(test.timers.waiting()).toEqual([]);
  });
});
