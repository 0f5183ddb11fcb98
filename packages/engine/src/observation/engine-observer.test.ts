import { GatewayError } from '@signalbox/core';
import { createArrayFrameSink, createFailoverTestEngine } from '../testing';
import { combineObservers } from './combine-observers';
import type { EngineObserver, ExchangeStart, LedgerBatch } from './engine-observer';

const TRACE_PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** An observer that writes down every event it is told, in order, as compact strings. */
function recordingObserver(traceId = 'trace-1') {
  const events: string[] = [];
  const starts: ExchangeStart[] = [];
  const batches: LedgerBatch[] = [];
  const observer: EngineObserver = {
    watchExchange(start) {
      starts.push(start);
      events.push(`exchange ${start.protocol}`);
      return {
        traceId,
        attemptStarted(attempt) {
          const after = attempt.after ? ` after ${attempt.after.errorCode}${attempt.after.failover ? ' failover' : ''}` : '';
          events.push(`attempt ${attempt.number} ${attempt.upstream} ${attempt.model} for ${attempt.route}${after}`);
          return {
            headers: { 'x-observed-attempt': String(attempt.number) },
            ended(ending) {
              events.push(
                ending.kind === 'served'
                  ? `attempt ${attempt.number} served ${ending.record.outcome}`
                  : `attempt ${attempt.number} failed ${GatewayError.isInstance(ending.error) ? ending.error.code : 'aborted'}${ending.retried ? ' retried' : ''}`,
              );
            },
          };
        },
        responseStarted: kind => events.push(`response ${kind}`),
        settled: ({ record, route }) => events.push(`settled ${record.status} ${route ?? 'no route'} cost ${record.costMicros}`),
        recorded: record => events.push(`recorded ${record.status} cost ${record.costMicros} trace ${record.traceId}`),
      };
    },
    ledgerBatchCommitted: batch => void batches.push(batch),
  };
  return { observer, events, starts, batches };
}

function failoverEngine(observer: EngineObserver, onObserverError?: (error: unknown) => void) {
  return createFailoverTestEngine({ observer, ...(onObserverError && { onObserverError }) });
}

beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));
afterEach(() => jest.restoreAllMocks());

describe('the engine observer', () => {
  it('follows a translated stream through a failover, its attempts, its settlement and its charge, in order', async () => {
    const { observer, events, starts, batches } = recordingObserver();
    const test = await failoverEngine(observer);
    const exchange = await test.open('openai-responses', { traceparent: TRACE_PARENT });
    const output = await exchange.generate({ model: 'client-model', input: 'Say hello', stream: true }, new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    await output.pipe(createArrayFrameSink());
    const [record] = await test.recorded();

    expect(events).toEqual([
      'exchange openai-responses',
      'attempt 1 a a-model for client-model',
      'attempt 1 failed UPSTREAM_OVERLOADED retried',
      'attempt 2 b b-model for client-model after UPSTREAM_OVERLOADED failover',
      'response stream',
      'attempt 2 served completed',
      'settled 200 client-model cost 0',
      `recorded 200 cost ${record!.costMicros} trace trace-1`,
    ]);
    expect(record!.costMicros).toBeGreaterThan(0);
    expect(record!.traceId).toBe('trace-1');
    expect(starts[0]!.headers).toMatchObject({ traceparent: TRACE_PARENT });
    // Each attempt's call carries the headers its watcher asked for.
    expect(test.calls.map(call => call.headers['x-observed-attempt'])).toEqual(['1', '2']);
    expect(batches).toEqual([{ rows: 1, durationMs: expect.any(Number), committed: true, queued: 0 }]);
  });

  it('sees a refusal with no attempts and no route', async () => {
    const { observer, events } = recordingObserver();
    const test = await failoverEngine(observer);
    const exchange = test.engine.openExchange({ protocol: 'openai-chat' });
    exchange.refuse(new GatewayError({ code: 'API_KEY_INVALID', message: 'Invalid API key.' }));
    exchange.refuse(new GatewayError({ code: 'API_KEY_INVALID', message: 'Invalid API key.' }));
    const [record] = await test.recorded();

    expect(events).toEqual(['exchange openai-chat', 'settled 401 no route cost 0', 'recorded 401 cost 0 trace trace-1']);
    expect(record).toMatchObject({ status: 401, errorCode: 'API_KEY_INVALID', traceId: 'trace-1' });
  });

  it('names the route only for a configured model: an unknown model ends with no route', async () => {
    const { observer, events } = recordingObserver();
    const test = await failoverEngine(observer);
    const exchange = await test.open('openai-responses');
    await expect(exchange.generate({ model: 'no-such-model', input: 'hi' }, new AbortController().signal)).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
    });
    await test.recorded();
    expect(events).toEqual(['exchange openai-responses', 'settled 404 no route cost 0', 'recorded 404 cost 0 trace trace-1']);
  });

  it('keeps serving when the observer throws, and reports each throw', async () => {
    const reported: unknown[] = [];
    const broken = new Error('observer bug');
    const observer: EngineObserver = {
      watchExchange: () => ({
        attemptStarted: () => {
          throw broken;
        },
        settled: () => {
          throw broken;
        },
      }),
      ledgerBatchCommitted: () => {
        throw broken;
      },
    };
    const test = await failoverEngine(observer, error => reported.push(error));
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate({ model: 'client-model', input: 'Say hello', stream: true }, new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    expect(await output.pipe(createArrayFrameSink())).toMatchObject({ error: undefined, clientAborted: false });
    const [record] = await test.recorded();

    expect(record).toMatchObject({ status: 200, outcome: 'completed', attempts: 2 });
    expect(record!.traceId).toBeUndefined();
    // Two attempts, one settlement, one batch.
    expect(reported).toEqual([broken, broken, broken, broken]);
  });

  it('combines observers: every event reaches each, the first trace id wins and attempt headers merge', async () => {
    const first = recordingObserver('trace-first');
    const second = recordingObserver('trace-second');
    const withOwnHeader: EngineObserver = {
      watchExchange: () => ({ attemptStarted: () => ({ headers: { traceparent: TRACE_PARENT } }) }),
    };
    const test = await failoverEngine(combineObservers(first.observer, second.observer, withOwnHeader));
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate({ model: 'client-model', input: 'Say hello', stream: true }, new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    await output.pipe(createArrayFrameSink());
    const [record] = await test.recorded();

    expect(record!.traceId).toBe('trace-first');
    expect(second.events).toEqual(first.events);
    expect(first.events).toHaveLength(8);
    expect(first.batches).toHaveLength(1);
    expect(second.batches).toHaveLength(1);
    expect(test.calls.map(call => [call.headers['x-observed-attempt'], call.headers.traceparent])).toEqual([
      ['1', TRACE_PARENT],
      ['2', TRACE_PARENT],
    ]);
  });
});
