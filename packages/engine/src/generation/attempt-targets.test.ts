import { ClientAbortedError, GatewayError } from '@signalbox/core';
import { createTestEngine, readFixture, transportError, type ScriptedAnswer, type TestEngineOptions } from '../testing';

// A JSON request from a Responses client to Messages upstreams: the attempts loop at its plainest.
const jsonBody = { model: 'client-model', input: 'Say hello' };
const served: ScriptedAnswer = { body: readFixture('messages-answer.json'), headers: { 'request-id': 'req_upstream_b' } };
const error = (status: number, type: string, headers: Record<string, string> = {}): ScriptedAnswer => ({
  status,
  headers,
  body: JSON.stringify({ type: 'error', error: { type, message: `${type} from the upstream` } }),
});
const rateLimited = (headers: Record<string, string> = {}) => error(429, 'rate_limit_error', headers);

async function generate(
  answers: Record<string, readonly ScriptedAnswer[]>,
  options: { replay?: boolean; missingCredential?: readonly string[]; sleep?: TestEngineOptions['sleep']; controller?: AbortController } = {},
) {
  const names = Object.keys(answers);
  const test = await createTestEngine({
    upstreams: Object.fromEntries(
      names.map(name => [
        name,
        {
          protocol: 'anthropic-messages' as const,
          answers: answers[name]!,
          ...(options.missingCredential?.includes(name) && { apiKeyEnv: `${name.toUpperCase()}_API_KEY` }),
        },
      ]),
    ),
    routes: [
      {
        model: 'client-model',
        interfaces: ['responses'],
        targets: names.map(upstream => ({ upstream, model: `${upstream}-model` })),
        ...(options.replay && { replayAmbiguousFailures: true }),
      },
    ],
    ...(options.sleep && { sleep: options.sleep }),
  });
  const exchange = await test.open('openai-responses');
  const signal = (options.controller ?? new AbortController()).signal;
  const result = await exchange.generate(jsonBody, signal).then(
    output => ({ output, failure: undefined }),
    (failure: unknown) => ({ output: undefined, failure: failure as GatewayError | ClientAbortedError }),
  );
  const [record] = await test.recorded();
  return { test, ...result, record: record!, order: test.calls.map(call => call.upstream) };
}

function gatewayError(failure: unknown): GatewayError {
  if (!GatewayError.isInstance(failure)) throw new Error(`expected a GatewayError, got ${String(failure)}`);
  return failure;
}

beforeEach(() => {
  // Backoff jitter off: the recorded delays are the policy's exact 250 ms, 500 ms.
  jest.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => jest.restoreAllMocks());

describe('attempts and failover', () => {
  it('tries the targets in route order and stops after 3 attempts in all, with 429 UPSTREAM_RATE_LIMITED', async () => {
    const { failure, order, test, record } = await generate({ a: [rateLimited()], b: [rateLimited()], c: [rateLimited()] });
    expect(gatewayError(failure).code).toBe('UPSTREAM_RATE_LIMITED');
    expect(gatewayError(failure).status).toBe(429);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(test.sleeps).toEqual([250, 500]);
    expect(record).toMatchObject({ status: 429, outcome: 'error', errorCode: 'UPSTREAM_RATE_LIMITED', attempts: 3, upstream: 'c' });
  });

  it('sends each target its own model name, and records the serving target and its request id', async () => {
    const { output, test, record } = await generate({ a: [rateLimited()], b: [served] });
    expect(test.calls.map(call => call.body.model)).toEqual(['a-model', 'b-model']);
    expect(output?.kind).toBe('json');
    expect(output?.kind === 'json' && output.body.output).toEqual([
      expect.objectContaining({ type: 'message', content: [expect.objectContaining({ type: 'output_text', text: 'Grüße aus Oslo 🌍!' })] }),
    ]);
    expect(record).toMatchObject({ status: 200, outcome: 'completed', upstream: 'b', upstreamRequestId: 'req_upstream_b', attempts: 2 });
  });

  it.each([
    ['retry-after in seconds', { 'retry-after': '2' }, 2000],
    ['retry-after-ms', { 'retry-after-ms': '1500' }, 1500],
  ])('honours %s: the injected sleep waits exactly the delay asked, then the next target serves', async (_case, headers, delay) => {
    const { output, test } = await generate({ a: [rateLimited(headers)], b: [served] });
    expect(output?.kind).toBe('json');
    expect(test.sleeps).toEqual([delay]);
  });

  it('does not wait for a Retry-After over 10 s: the 429 goes back at once, carrying the delay', async () => {
    const { failure, order, test } = await generate({ a: [rateLimited({ 'retry-after': '30' })], b: [served] });
    expect(gatewayError(failure).code).toBe('UPSTREAM_RATE_LIMITED');
    expect(gatewayError(failure).retryAfterMs).toBe(30_000);
    expect(order).toEqual(['a']);
    expect(test.sleeps).toEqual([]);
  });

  it('does not replay an ambiguous upstream 500 by default: 502 UPSTREAM_FAILED after one call', async () => {
    const { failure, order, test } = await generate({ a: [error(500, 'api_error')], b: [served] });
    expect(gatewayError(failure).code).toBe('UPSTREAM_FAILED');
    expect(gatewayError(failure).status).toBe(502);
    expect(order).toEqual(['a']);
    expect(test.sleeps).toEqual([]);
  });

  it('does not replay a headers timeout by default: 504 UPSTREAM_TIMEOUT after one call', async () => {
    const { failure, order } = await generate({ a: [{ sendError: transportError('UND_ERR_HEADERS_TIMEOUT') }], b: [served] });
    expect(gatewayError(failure).code).toBe('UPSTREAM_TIMEOUT');
    expect(gatewayError(failure).status).toBe(504);
    expect(order).toEqual(['a']);
  });

  it.each([
    ['an upstream 500', error(500, 'api_error')],
    ['a headers timeout', { sendError: transportError('UND_ERR_HEADERS_TIMEOUT') }],
  ])('replays %s when the route sets replayAmbiguousFailures', async (_case, answer) => {
    const { output, order, test } = await generate({ a: [answer], b: [served] }, { replay: true });
    expect(output?.kind).toBe('json');
    expect(order).toEqual(['a', 'b']);
    expect(test.sleeps).toEqual([250]);
  });

  it('retries a refused connection (nothing reached the model) on the next target after the backoff', async () => {
    const { output, order, test } = await generate({ a: [{ sendError: transportError('ECONNREFUSED') }], b: [served] });
    expect(output?.kind).toBe('json');
    expect(order).toEqual(['a', 'b']);
    expect(test.sleeps).toEqual([250]);
  });

  it('fails over at once on NO_ACCOUNT_AVAILABLE (a missing upstream credential): no sleep, no call to that upstream', async () => {
    const { output, order, test, record } = await generate({ a: [served], b: [served] }, { missingCredential: ['a'] });
    expect(output?.kind).toBe('json');
    expect(order).toEqual(['b']);
    expect(test.sleeps).toEqual([]);
    expect(record).toMatchObject({ status: 200, upstream: 'b', attempts: 2 });
  });

  it('answers 503 NO_ACCOUNT_AVAILABLE after trying each target once when none has an account', async () => {
    const { failure, order, test, record } = await generate({ a: [served], b: [served] }, { missingCredential: ['a', 'b'] });
    expect(gatewayError(failure).code).toBe('NO_ACCOUNT_AVAILABLE');
    expect(gatewayError(failure).status).toBe(503);
    expect(order).toEqual([]);
    expect(test.sleeps).toEqual([]);
    expect(record).toMatchObject({ status: 503, errorCode: 'NO_ACCOUNT_AVAILABLE', attempts: 2 });
  });

  it('ends as client-aborted (499) when the client leaves during the backoff, without another call', async () => {
    const controller = new AbortController();
    const { failure, order, record } = await generate(
      { a: [rateLimited()], b: [served] },
      {
        controller,
        sleep(_ms, signal) {
          controller.abort(new Error('The client closed the connection.'));
          return Promise.reject(signal!.reason);
        },
      },
    );
    expect(ClientAbortedError.isInstance(failure)).toBe(true);
    expect(order).toEqual(['a']);
    expect(record).toMatchObject({ status: 499, outcome: 'client-aborted', errorCode: undefined, attempts: 1 });
  });
});
