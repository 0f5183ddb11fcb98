import { setImmediate as nextTurn } from 'node:timers/promises';
import { GatewayError } from '@signalbox/core';
import { createArrayFrameSink, createTestEngine, readFixture, type ScriptedAnswer } from '../testing';

const messagesFrames = readFixture('messages-text.sse').split(/(?<=\n\n)/);
const streamBody = { model: 'client-model', input: 'Say hello', stream: true };
const jsonBody = { model: 'client-model', input: 'Say hello' };

/** One route on a Messages upstream scripted with `answers`, with the given deadline (or the default). */
function deadlineEngine(answers: readonly ScriptedAnswer[], deadlineMs?: number) {
  return createTestEngine({
    upstreams: { a: { protocol: 'anthropic-messages', answers } },
    routes: [
      {
        model: 'client-model',
        interfaces: ['responses'],
        targets: [{ upstream: 'a', model: 'claude-upstream' }],
        ...(deadlineMs !== undefined && { deadlineMs }),
      },
    ],
  });
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected generate to throw');
    },
    (error: unknown) => (GatewayError.isInstance(error) ? error : Promise.reject(error)),
  );

describe('the overall deadline of a request', () => {
  it('ends a stream that keeps trickling at its deadline with the terminal error event, recorded as failed with UPSTREAM_TIMEOUT', async () => {
    // The upstream sends its frames one by one and then stays open, never silent long enough for an idle timeout to matter.
    const test = await deadlineEngine([{ chunks: messagesFrames.slice(0, 5), then: 'hang' }], 30_000);
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate(streamBody, new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const sink = createArrayFrameSink();
    const piping = output.pipe(sink);
    while (!sink.text().includes('Oslo')) await nextTurn();
    test.timers.advance(29_999);
    await nextTurn();
    expect(test.records).toHaveLength(0);
    test.timers.advance(1);
    const outcome = await piping;
    expect(outcome).toMatchObject({ interrupted: true, clientAborted: false, error: { code: 'UPSTREAM_TIMEOUT', status: 504 } });
    const last = sink.messages().at(-1)!;
    expect(last.event).toBe('response.failed');
    expect(JSON.parse(last.data).response.error.message).toBe('The request did not finish within its deadline of 30000 ms.');
    const [record] = await test.recorded();
    expect(record).toMatchObject({ status: 200, outcome: 'failed', errorCode: 'UPSTREAM_TIMEOUT' });
    expect(test.upstream('a').calls[0]!.signal?.aborted).toBe(true);
    expect(await test.account()).toMatchObject({ reservedMicros: 0 });
  });

  it('answers 504 UPSTREAM_TIMEOUT when the deadline passes before the answer begins, without another attempt', async () => {
    const test = await deadlineEngine([{ chunks: messagesFrames.slice(0, 1), then: 'hang' }], 5_000);
    const exchange = await test.open('openai-responses');
    const failing = failureOf(exchange.generate(streamBody, new AbortController().signal));
    while (test.calls.length === 0) await nextTurn();
    test.timers.advance(5_000);
    const failure = await failing;
    expect([failure.status, failure.code]).toEqual([504, 'UPSTREAM_TIMEOUT']);
    expect(test.calls).toHaveLength(1);
    const [record] = await test.recorded();
    expect(record).toMatchObject({ status: 504, outcome: 'error', errorCode: 'UPSTREAM_TIMEOUT', costMicros: 0 });
    expect(await test.account()).toMatchObject({ reservedMicros: 0 });
  });

  it('answers 504 UPSTREAM_TIMEOUT when a JSON answer is still unread at the deadline', async () => {
    const test = await deadlineEngine([{ chunks: ['{"id":'], then: 'hang' }], 5_000);
    const exchange = await test.open('openai-responses');
    const failing = failureOf(exchange.generate(jsonBody, new AbortController().signal));
    while (test.calls.length === 0) await nextTurn();
    test.timers.advance(5_000);
    const failure = await failing;
    expect([failure.status, failure.code]).toEqual([504, 'UPSTREAM_TIMEOUT']);
    expect((await test.recorded())[0]).toMatchObject({ status: 504, outcome: 'error', errorCode: 'UPSTREAM_TIMEOUT' });
  });

  it('counts from the request’s start (default 10 minutes) and is cancelled once the request is settled', async () => {
    const test = await deadlineEngine([{ body: readFixture('messages-text.sse') }]);
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate(streamBody, new AbortController().signal);
    expect(test.timers.waiting()).toEqual([600_000]);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    await output.pipe(createArrayFrameSink());
    expect((await test.recorded())[0]).toMatchObject({ status: 200, outcome: 'completed' });
    expect(test.timers.waiting()).toEqual([]);
  });

  it('aborts the transport’s own controller, handed over as the generation’s, with UPSTREAM_TIMEOUT at the deadline', async () => {
    const test = await deadlineEngine([{ chunks: messagesFrames.slice(0, 1), then: 'hang' }], 5_000);
    const exchange = await test.open('openai-responses');
    const controller = new AbortController();
    const failing = failureOf(exchange.generate(streamBody, controller));
    while (test.calls.length === 0) await nextTurn();
    test.timers.advance(5_000);
    const failure = await failing;
    const reason: unknown = controller.signal.reason;
    expect([failure.code, GatewayError.isInstance(reason) && reason.code]).toEqual(['UPSTREAM_TIMEOUT', 'UPSTREAM_TIMEOUT']);
    expect(test.upstream('a').calls[0]!.signal?.aborted).toBe(true);
    expect((await test.recorded())[0]).toMatchObject({ status: 504, outcome: 'error', errorCode: 'UPSTREAM_TIMEOUT' });
  });

  it('ends a stream quietly as the client’s abort when the transport aborts its handed-over controller before the deadline', async () => {
    const test = await deadlineEngine([{ chunks: messagesFrames.slice(0, 5), then: 'hang' }], 30_000);
    const exchange = await test.open('openai-responses');
    const controller = new AbortController();
    const output = await exchange.generate(streamBody, controller);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const sink = createArrayFrameSink();
    const piping = output.pipe(sink);
    while (!sink.text().includes('Oslo')) await nextTurn();
    controller.abort(new Error('The client closed the connection.'));
    const outcome = await piping;
    expect(outcome).toMatchObject({ interrupted: false, clientAborted: true });
    expect(sink.messages().some(message => message.event === 'response.failed')).toBe(false);
    expect((await test.recorded())[0]).toMatchObject({ outcome: 'client-aborted' });
    expect(test.timers.waiting()).toEqual([]);
  });
});
