import type { GatewayError } from '@signalbox/core';
import type { HealthMark } from '../upstreams/health-store';
import { createMemoryHealthStore } from '../upstreams/create-memory-health-store';
import {
  createArrayFrameSink,
  createTestEngine,
  messagesError as error,
  messagesRateLimited as rateLimited,
  messagesServed as served,
  messagesServedMany as servedMany,
  readFixture,
  TEST_NOW,
  transportError,
  type ScriptedAnswer,
  type TestEngineOptions,
  type TestUpstream,
} from '../testing';

// A Responses client in front of Messages upstreams whose keys are pooled: which key serves, which is skipped.
const body = { model: 'client-model', input: 'Say hello' };
const revoked = error(401, 'authentication_error');

type Pool = Record<string, readonly ScriptedAnswer[]>;

/** An engine whose route has one target per entry of `upstreams`, each a pool of the credentials given, on a clock the test moves. */
async function poolEngine(upstreams: Record<string, Pool>, options: Partial<TestEngineOptions> & { breaker?: TestUpstream['circuitBreaker'] } = {}) {
  const clock = { now: TEST_NOW };
  const changes: HealthMark[] = [];
  const test = await createTestEngine({
    upstreams: Object.fromEntries(
      Object.entries(upstreams).map(([name, credentials]) => [
        name,
        {
          protocol: 'anthropic-messages' as const,
          credentials: Object.entries(credentials).map(([credential, answers]) => ({ name: credential, answers })),
          ...(options.breaker && { circuitBreaker: options.breaker }),
        },
      ]),
    ),
    routes: [{ model: 'client-model', interfaces: ['responses'], targets: Object.keys(upstreams).map(upstream => ({ upstream, model: `${upstream}-model` })) }],
    now: () => clock.now,
    observer: { upstreamHealthChanged: mark => void changes.push(mark) },
    ...options,
  });
  let sent = 0;
  /** One request, of a conversation of its own: its output or failure, and its usage record. */
  const generate = async () => {
    const exchange = await test.open('openai-responses');
    sent += 1;
    const result = await exchange.generate({ ...body, input: `${body.input} (${sent})` }, new AbortController().signal).then(
      output => ({ output, failure: undefined }),
      (failure: unknown) => ({ output: undefined, failure: failure as GatewayError }),
    );
    const records = await test.recorded(test.records.length + 1);
    return { ...result, record: records.at(-1)! };
  };
  const credentialsUsed = () => test.calls.map(call => `${call.upstream}/${call.credential}`);
  const stateOf = (upstream: string, credential: string) =>
    test.engine.upstreamHealth().find(report => report.name === upstream)!.credentials.find(report => report.name === credential)!;
  return { test, clock, changes, generate, credentialsUsed, stateOf };
}

beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));
afterEach(() => jest.restoreAllMocks());

describe('a pool of credentials behind one upstream', () => {
  it('moves a rate-limited request at once to another credential, and leaves the first alone until its reset', async () => {
    const { test, clock, generate, credentialsUsed, stateOf, changes } = await poolEngine({
      main: { a: [rateLimited(20), served], b: servedMany(5) },
    });
    const first = await generate();
    expect(first.output?.kind).toBe('json');
    expect(first.record).toMatchObject({ status: 200, upstream: 'main', upstreamCredential: 'b', attempts: 2 });
    expect(test.sleeps).toEqual([]);
    expect(stateOf('main', 'a')).toMatchObject({ state: 'cooling-down', until: TEST_NOW + 20_000, lastErrorCode: 'UPSTREAM_RATE_LIMITED' });
    expect(changes).toEqual([{ kind: 'cooldown', upstream: 'main', credential: 'a', until: TEST_NOW + 20_000 }]);

    for (let request = 0; request < 3; request += 1) expect((await generate()).record.upstreamCredential).toBe('b');
    clock.now = TEST_NOW + 20_000;
    expect(stateOf('main', 'a').state).toBe('healthy');
    // Back in the rotation: the next two requests go one to each.
    const back = [(await generate()).record.upstreamCredential, (await generate()).record.upstreamCredential];
    expect(back.sort()).toEqual(['a', 'b']);
    expect(credentialsUsed().slice(0, 5)).toEqual(['main/a', 'main/b', 'main/b', 'main/b', 'main/b']);
  });

  it('takes a credential whose key the upstream refuses out of service until it is enabled again, logging the change once', async () => {
    const { test, generate, credentialsUsed, stateOf, changes } = await poolEngine({
      main: { a: [revoked, served], b: servedMany(4) },
    });
    expect((await generate()).record).toMatchObject({ status: 200, upstreamCredential: 'b', attempts: 2 });
    expect((await generate()).record.upstreamCredential).toBe('b');
    expect(stateOf('main', 'a')).toMatchObject({ state: 'disabled', reason: 'upstream-401', lastErrorCode: 'UPSTREAM_AUTH_FAILED' });
    expect(changes).toEqual([{ kind: 'disabled', upstream: 'main', credential: 'a', reason: 'upstream-401' }]);

    expect(test.engine.enableCredential('main', 'a')).toMatchObject({ name: 'a', state: 'healthy' });
    expect(test.engine.enableCredential('main', 'nobody')).toBeUndefined();
    const back = [(await generate()).record.upstreamCredential, (await generate()).record.upstreamCredential];
    expect(back.sort()).toEqual(['a', 'b']);
    expect(credentialsUsed().slice(0, 3)).toEqual(['main/a', 'main/b', 'main/b']);
  });

  it('answers 503 NO_ACCOUNT_AVAILABLE without calling anyone when every credential of every target cools down, Retry-After the earliest reset', async () => {
    const { test, generate, credentialsUsed } = await poolEngine({
      first: { a: [rateLimited(30)], b: [rateLimited(8)] },
      second: { c: [rateLimited(5)] },
    });
    const limited = await generate();
    // a 429 → b (the same upstream, at once) 429 → the next target, after the wait b asked for.
    expect(credentialsUsed()).toEqual(['first/a', 'first/b', 'second/c']);
    expect(test.sleeps).toEqual([8_000]);
    expect(limited.failure?.code).toBe('UPSTREAM_RATE_LIMITED');

    const refused = await generate();
    expect(refused.failure?.code).toBe('NO_ACCOUNT_AVAILABLE');
    expect(refused.failure?.status).toBe(503);
    // The test's clock did not move during the wait: c, on the second target, is back first.
    expect(refused.failure?.retryAfterMs).toBe(5_000);
    expect(refused.record).toMatchObject({ status: 503, errorCode: 'NO_ACCOUNT_AVAILABLE', attempts: 2, upstreamCredential: undefined });
    expect(credentialsUsed()).toHaveLength(3);
  });

  it('fails over at once to the next target when its first target has no usable credential', async () => {
    const { test, generate, credentialsUsed } = await poolEngine({
      first: { a: [revoked] },
      second: { c: servedMany(2) },
    });
    await generate();
    const next = await generate();
    expect(next.record).toMatchObject({ status: 200, upstream: 'second', upstreamCredential: 'c', attempts: 2 });
    expect(credentialsUsed()).toEqual(['first/a', 'second/c', 'second/c']);
    expect(test.sleeps).toEqual([]);
  });

  it('never makes more than 3 attempts, however many credentials are left', async () => {
    const { generate, credentialsUsed } = await poolEngine({
      main: { a: [rateLimited(5)], b: [rateLimited(5)], c: [rateLimited(5)], d: [served] },
    });
    const result = await generate();
    expect(result.failure?.code).toBe('UPSTREAM_RATE_LIMITED');
    expect(result.record.attempts).toBe(3);
    expect(credentialsUsed()).toEqual(['main/a', 'main/b', 'main/c']);
  });

  it('opens a credential’s circuit after repeated server errors, probes it once the open time has passed, and closes it on success', async () => {
    const { clock, generate, credentialsUsed, stateOf, changes } = await poolEngine(
      { main: { a: [error(500, 'api_error'), error(500, 'api_error'), served], b: servedMany(5) } },
      { breaker: { failures: 2, windowMs: 10_000, openMs: 30_000 } },
    );
    // Weights 1:1 alternate a, b, a…: a fails twice (no replay of a 500), b serves in between.
    expect((await generate()).failure?.code).toBe('UPSTREAM_FAILED');
    expect((await generate()).record.upstreamCredential).toBe('b');
    expect((await generate()).failure?.code).toBe('UPSTREAM_FAILED');
    expect(stateOf('main', 'a')).toMatchObject({ state: 'circuit-open', until: TEST_NOW + 30_000 });
    for (let request = 0; request < 2; request += 1) expect((await generate()).record.upstreamCredential).toBe('b');
    clock.now = TEST_NOW + 30_000;
    expect(stateOf('main', 'a').state).toBe('circuit-half-open');
    const back = [(await generate()).record.upstreamCredential, (await generate()).record.upstreamCredential];
    expect(back.sort()).toEqual(['a', 'b']);
    expect(stateOf('main', 'a').state).toBe('healthy');
    expect(credentialsUsed().slice(0, 5)).toEqual(['main/a', 'main/b', 'main/a', 'main/b', 'main/b']);
    expect(changes).toEqual([
      { kind: 'circuit-open', upstream: 'main', credential: 'a', until: TEST_NOW + 30_000 },
      { kind: 'circuit-closed', upstream: 'main', credential: 'a' },
    ]);
  });

  it('opens the upstream’s own circuit when its connections fail across credentials, and fails over past it', async () => {
    const refused = { sendError: transportError('ECONNREFUSED') };
    const { generate, credentialsUsed, test } = await poolEngine(
      { down: { a: [refused], b: [refused] }, spare: { c: servedMany(3) } },
      { breaker: { failures: 2, windowMs: 10_000, openMs: 30_000 } },
    );
    // a refused → backoff → spare serves; then b refused: 2 failures of the upstream within its window, 1 of each credential.
    expect((await generate()).record).toMatchObject({ upstream: 'spare', attempts: 2 });
    expect((await generate()).record).toMatchObject({ upstream: 'spare', attempts: 2 });
    expect(test.engine.upstreamHealth().find(report => report.name === 'down')).toMatchObject({ state: 'circuit-open', until: TEST_NOW + 30_000 });
    const skipped = await generate();
    expect(skipped.record).toMatchObject({ upstream: 'spare', attempts: 2 });
    expect(credentialsUsed()).toEqual(['down/a', 'spare/c', 'down/b', 'spare/c', 'spare/c']);
  });

  it('counts a credential’s requests in flight until their request settles', async () => {
    const { test, stateOf } = await poolEngine({ main: { a: [{ body: readFixture('messages-text.sse'), then: 'hang' }] } });
    const exchange = await test.open('openai-responses');
    const controller = new AbortController();
    const output = await exchange.generate({ ...body, stream: true }, controller.signal);
    expect(output.kind).toBe('stream');
    expect(stateOf('main', 'a').inFlight).toBe(1);
    controller.abort(new Error('The client closed the connection.'));
    if (output.kind === 'stream') await output.pipe(createArrayFrameSink());
    await test.recorded();
    expect(stateOf('main', 'a').inFlight).toBe(0);
  });
});

describe('engines sharing one health store', () => {
  it('leave a credential another engine found rate-limited alone from its next request', async () => {
    const store = createMemoryHealthStore();
    const one = await poolEngine({ main: { a: [rateLimited(20)], b: servedMany(2) } }, { healthStore: store });
    const two = await poolEngine({ main: { a: [], b: servedMany(3) } }, { healthStore: store });
    await one.generate();
    expect(two.stateOf('main', 'a')).toMatchObject({ state: 'cooling-down', until: TEST_NOW + 20_000 });
    for (let request = 0; request < 3; request += 1) expect((await two.generate()).record.upstreamCredential).toBe('b');
    expect(two.credentialsUsed()).toEqual(['main/b', 'main/b', 'main/b']);
    // Only the engine that learned it reports the change.
    expect([one.changes.length, two.changes.length]).toEqual([1, 0]);
  });

  it('catch a joining engine up with the cooldowns in force, and share an operator’s enable', async () => {
    const store = createMemoryHealthStore();
    const one = await poolEngine({ main: { a: [rateLimited(20), revoked], b: servedMany(3) } }, { healthStore: store });
    await one.generate();
    const two = await poolEngine({ main: { a: [served], b: [] } }, { healthStore: store });
    await new Promise(resolve => setImmediate(resolve));
    expect(two.stateOf('main', 'a').state).toBe('cooling-down');
    two.test.engine.enableCredential('main', 'a');
    expect(one.stateOf('main', 'a').state).toBe('healthy');
    expect((await two.generate()).record.upstreamCredential).toBe('a');
  });
});
