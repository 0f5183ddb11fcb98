import { setImmediate as nextTurn } from 'node:timers/promises';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import { ClientAbortedError, GatewayError, type Codec, type Protocol } from '@signalbox/core';
import { allCodecs, createArrayFrameSink, createTestEngine, readFixture, type ScriptedAnswer, type TestEngine } from '../testing';

// Prices of 1 and 2 micros per input and output token make every cost easy to check by hand.
const pricing = { inputPerMillion: 1, outputPerMillion: 2 };
// 'Say hello' is 9 characters: the admission estimate is ceil(9 / 4) = 3 input tokens.
const ESTIMATED_INPUT = 3;
const streamBody = { model: 'client-model', input: 'Say hello', stream: true };
const jsonBody = { model: 'client-model', input: 'Say hello' };
const messagesFrames = readFixture('messages-text.sse').split(/(?<=\n\n)/);

/**
 * One priced route on an upstream (Messages unless said otherwise) scripted with `answers`, a key allowed one request at a
 * time, and a second route ('spare-model') whose upstream always has an answer: a request there
 * succeeds only if the first request gave its concurrency slot back.
 */
async function settlementEngine(
  answers: readonly ScriptedAnswer[],
  codecs?: readonly Codec[],
  protocol: Protocol = 'anthropic-messages',
) {
  return createTestEngine({
    upstreams: {
      a: { protocol, answers },
      spare: { protocol: 'anthropic-messages', answers: [{ body: readFixture('messages-answer.json') }] },
    },
    routes: [
      { model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'a', model: 'claude-upstream' }], pricing },
      { model: 'spare-model', interfaces: ['responses'], targets: [{ upstream: 'spare', model: 'claude-upstream' }] },
    ],
    key: { limits: { concurrency: 1 } },
    ...(codecs && { codecs }),
  });
}

/** Nothing stays held: the balance is the opening one minus what was charged, and the key's one slot is free. */
async function expectReleased(test: TestEngine, chargedMicros: number) {
  expect(await test.account()).toMatchObject({ balanceMicros: test.openingBalanceMicros - chargedMicros, reservedMicros: 0 });
  const spare = await test.open('openai-responses');
  const output = await spare.generate({ model: 'spare-model', input: 'again' }, new AbortController().signal);
  expect(output.kind).toBe('json');
}

async function streamOf(test: TestEngine, signal = new AbortController().signal) {
  const exchange = await test.open('openai-responses');
  const output = await exchange.generate(streamBody, signal);
  if (output.kind !== 'stream') throw new Error('expected a stream');
  return { exchange, output };
}

describe('settlement: exactly one usage record per exchange, every hold released', () => {
  it('records a JSON answer once, billed on the upstream’s counts', async () => {
    const test = await settlementEngine([{ body: readFixture('messages-answer.json') }]);
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate(jsonBody, new AbortController().signal);
    expect(output.kind).toBe('json');
    const records = await test.recorded();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      status: 200,
      outcome: 'completed',
      stream: false,
      usage: { inputTokens: 21, outputTokens: 7 },
      costMicros: 21 * 1 + 7 * 2,
      keyId: test.keyId,
      accountId: test.accountId,
      model: 'client-model',
      attempts: 1,
    });
    await expectReleased(test, 35);
  });

  it('records a piped stream once, billed on the usage its upstream reported', async () => {
    const test = await settlementEngine([{ body: readFixture('messages-text.sse'), chunkSize: 16 }]);
    const { output } = await streamOf(test);
    await output.pipe(createArrayFrameSink());
    const records = await test.recorded();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 200, outcome: 'completed', stream: true, usage: { inputTokens: 21, outputTokens: 7 }, costMicros: 35 });
    expect(records[0]!.usage?.estimated).toBeUndefined();
    await expectReleased(test, 35);
  });

  it('bills a stream whose upstream reported no usage on the estimate (usage.estimated: true)', async () => {
    const test = await settlementEngine([{ body: readFixture('chat-text-no-usage.sse') }], undefined, 'openai-chat');
    const { output } = await streamOf(test);
    await output.pipe(createArrayFrameSink());
    const [record] = await test.recorded();
    const outputTokens = Math.ceil('Héllo wörld 👋'.length / 4);
    expect(record!.usage).toEqual({
      inputTokens: ESTIMATED_INPUT,
      outputTokens,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
      reasoningTokens: undefined,
      estimated: true,
    });
    expect(record!.costMicros).toBe(ESTIMATED_INPUT * 1 + outputTokens * 2);
    await expectReleased(test, ESTIMATED_INPUT * 1 + outputTokens * 2);
  });

  it('records a failure before the commit point once, charging nothing', async () => {
    const invalid = { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: too large' } };
    const test = await settlementEngine([{ status: 400, body: JSON.stringify(invalid) }]);
    const exchange = await test.open('openai-responses');
    const failure = await exchange.generate(streamBody, new AbortController().signal).catch((error: unknown) => error);
    expect(GatewayError.isInstance(failure) && failure.code).toBe('UPSTREAM_INVALID_REQUEST');
    // The transport's error handler hands the same failure to the exchange: still one record.
    exchange.refuse(failure as GatewayError);
    const records = await test.recorded();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 400, outcome: 'error', errorCode: 'UPSTREAM_INVALID_REQUEST', usage: undefined, costMicros: 0 });
    await expectReleased(test, 0);
  });

  it('records a client that leaves mid-stream once, as client-aborted, billed on the estimate of what was streamed', async () => {
    const test = await settlementEngine([{ chunks: messagesFrames.slice(0, 4), then: 'hang' }]);
    const controller = new AbortController();
    const { output } = await streamOf(test, controller.signal);
    const sink = createArrayFrameSink();
    const piping = output.pipe(sink);
    while (!sink.text().includes('response.output_text.delta')) await nextTurn();
    controller.abort(new Error('The client closed the connection.'));
    const outcome = await piping;
    expect(outcome.clientAborted).toBe(true);
    const records = await test.recorded();
    expect(records).toHaveLength(1);
    const outputTokens = Math.ceil('Grüße aus '.length / 4);
    expect(records[0]).toMatchObject({
      status: 200,
      outcome: 'client-aborted',
      usage: { inputTokens: ESTIMATED_INPUT, outputTokens, estimated: true },
      costMicros: ESTIMATED_INPUT * 1 + outputTokens * 2,
    });
    await expectReleased(test, ESTIMATED_INPUT * 1 + outputTokens * 2);
  });

  it('records a refusal the transport met (exchange.refuse) once, with its status and code', async () => {
    const test = await settlementEngine([]);
    const exchange = await test.open('openai-responses');
    exchange.refuse(new GatewayError({ code: 'INVALID_JSON', message: 'The body is not valid JSON.' }));
    exchange.refuse(new GatewayError({ code: 'REQUEST_TOO_LARGE', message: 'A second refusal for the same exchange.' }));
    const records = await test.recorded();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 400, outcome: 'error', errorCode: 'INVALID_JSON', keyId: test.keyId, attempts: 0, costMicros: 0 });
    await expectReleased(test, 0);
  });

  it('records a codec that throws a TypeError as 500 INTERNAL_ERROR with outcome error, never client-aborted', async () => {
    const broken: Codec = {
      ...openAIResponsesCodec,
      decodeRequest() {
        throw new TypeError("Cannot read properties of undefined (reading 'type')");
      },
    };
    const test = await settlementEngine([], [broken, ...allCodecs.filter(codec => codec.protocol !== broken.protocol)]);
    const exchange = await test.open('openai-responses');
    const failure = await exchange.generate(jsonBody, new AbortController().signal).catch((error: unknown) => error);
    expect(ClientAbortedError.isInstance(failure)).toBe(false);
    expect(GatewayError.isInstance(failure) && [failure.code, failure.status]).toEqual(['INTERNAL_ERROR', 500]);
    const records = await test.recorded();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 500, outcome: 'error', errorCode: 'INTERNAL_ERROR' });
    // The request never reached admission (this codec can serve no second request to prove the slot).
    expect(await test.account()).toMatchObject({ balanceMicros: test.openingBalanceMicros, reservedMicros: 0 });
  });

  it('records nothing more when refuse is called after the answer settled', async () => {
    const test = await settlementEngine([{ body: readFixture('messages-answer.json') }]);
    const exchange = await test.open('openai-responses');
    await exchange.generate(jsonBody, new AbortController().signal);
    await test.recorded();
    exchange.refuse(new GatewayError({ code: 'INTERNAL_ERROR', message: 'The response could not be written.' }));
    const records = await test.recorded();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 200, outcome: 'completed' });
    await expectReleased(test, 35);
  });

  it('lets the upstream body go and settles when a stream is refused before its pipe was ever called', async () => {
    const test = await settlementEngine([{ chunks: messagesFrames.slice(0, 4), then: 'hang' }]);
    const { exchange } = await streamOf(test);
    exchange.refuse(new GatewayError({ code: 'INTERNAL_ERROR', message: 'The transport failed before the stream began.' }));
    const records = await test.recorded();
    expect(test.upstream('a').calls[0]!.bodyClosed).toBe(true);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 500, outcome: 'error', errorCode: 'INTERNAL_ERROR', usage: undefined, costMicros: 0 });
    await expectReleased(test, 0);
  });
});
