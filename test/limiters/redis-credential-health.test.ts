import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { CredentialHealthStore } from '@signalbox/engine';
import { createTestEngine, messagesError as error, messagesServed as served, TEST_NOW, type ScriptedAnswer } from '@signalbox/engine/testing';
import { createRedisHealthStore } from '@signalbox/limiter-redis';
import { Redis } from 'ioredis';
import { startRedis, type TestRedis } from '../helpers/start-redis';

/**
 * Two engines, each on a Redis connection of its own as two gateway instances would be, sharing
 * upstream health through one real Redis: what one learns from an upstream's answer, the other
 * applies within a second, without asking the upstream again.
 */
let redis: TestRedis;
const connections: Redis[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map(close => close()));
  connections.splice(0).forEach(connection => connection.disconnect());
});
afterAll(async () => {
  await redis?.stop();
});


function healthStore(keyPrefix: string, errors: Error[] = []): CredentialHealthStore {
  const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  connections.push(connection);
  return createRedisHealthStore({ redis: connection, keyPrefix, now: () => TEST_NOW, onError: error => errors.push(error) });
}

/** An instance: an engine with a pool of `a` and `b` behind one Messages upstream, on the shared Redis under `keyPrefix`. */
async function instance(keyPrefix: string, answers: { a: readonly ScriptedAnswer[]; b: readonly ScriptedAnswer[] }) {
  const test = await createTestEngine({
    upstreams: {
      main: {
        protocol: 'anthropic-messages',
        credentials: [
          { name: 'a', answers: answers.a },
          { name: 'b', answers: answers.b },
        ],
        circuitBreaker: { failures: 1, windowMs: 10_000, openMs: 60_000 },
      },
    },
    routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'main', model: 'claude-upstream' }] }],
    healthStore: healthStore(keyPrefix),
  });
  closers.push(() => test.engine.close());
  const generate = async () => {
    const exchange = await test.open('openai-responses');
    await exchange.generate({ model: 'client-model', input: 'Say hello' }, new AbortController().signal).catch(() => undefined);
    return (await test.recorded(test.records.length + 1)).at(-1)!;
  };
  const stateOf = (credential: string) => test.engine.upstreamHealth()[0]!.credentials.find(report => report.name === credential)!;
  return { test, generate, stateOf };
}

/** Resolves once `count` instances listen on the channel of `keyPrefix`: neither misses what the other learns. */
async function subscribersOf(keyPrefix: string, count: number): Promise<void> {
  const connection = new Redis(redis.url);
  connections.push(connection);
  const channel = `${keyPrefix}marks`;
  for (let checks = 0; checks < 200; checks += 1) {
    const [, listening] = (await connection.pubsub('NUMSUB', channel)) as [string, number];
    if (listening >= count) return;
    await new Promise(resolve => setTimeout(resolve, 5));
  }
  throw new Error(`fewer than ${count} instances subscribed to ${channel}`);
}

/** Resolves with the milliseconds it took for `condition` to hold, checking every 5 ms; rejects after `withinMs`. */
async function timeUntil(condition: () => boolean, withinMs: number): Promise<number> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise(resolve => setTimeout(resolve, 5));
  }
  return performance.now() - started;
}

describe('upstream health shared through Redis', () => {
  it('puts a credential one instance found rate-limited in cooldown on the other within a second, which then sends it nothing', async () => {
    const keyPrefix = `health:${randomUUID()}:`;
    const one = await instance(keyPrefix, { a: [error(429, 'rate_limit_error', { 'retry-after': '30' })], b: [served] });
    const two = await instance(keyPrefix, { a: [], b: [served, served, served] });
    await subscribersOf(keyPrefix, 2);

    expect((await one.generate())).toMatchObject({ status: 200, upstreamCredential: 'b', attempts: 2 });
    const took = await timeUntil(() => two.stateOf('a').state === 'cooling-down', 1_000);
    expect(took).toBeLessThan(1_000);
    expect(two.stateOf('a')).toMatchObject({ state: 'cooling-down', until: TEST_NOW + 30_000 });
    for (let request = 0; request < 3; request += 1) expect((await two.generate()).upstreamCredential).toBe('b');
    expect(two.test.calls.map(call => call.credential)).toEqual(['b', 'b', 'b']);
  });

  it('shares a key taken out and an open circuit, and an operator enabling the credential again', async () => {
    const keyPrefix = `health:${randomUUID()}:`;
    const one = await instance(keyPrefix, { a: [error(401, 'authentication_error')], b: [error(500, 'api_error')] });
    const two = await instance(keyPrefix, { a: [served], b: [] });
    await subscribersOf(keyPrefix, 2);

    // a refused (401) → b at once, which fails with a 500: its circuit and the upstream's (1 failure each) open.
    expect(await one.generate()).toMatchObject({ status: 502, errorCode: 'UPSTREAM_FAILED', attempts: 2 });
    // Three announcements (the key, the credential's circuit, the upstream's), each heard on its own.
    await timeUntil(
      () => two.stateOf('a').state === 'disabled' && two.stateOf('b').state === 'circuit-open' && two.test.engine.upstreamHealth()[0]?.state === 'circuit-open',
      1_000,
    );
    expect(two.stateOf('a')).toMatchObject({ reason: 'upstream-401' });
    expect(two.stateOf('b')).toMatchObject({ until: TEST_NOW + 60_000 });
    expect(two.test.engine.upstreamHealth()[0]).toMatchObject({ state: 'circuit-open', until: TEST_NOW + 60_000 });
    expect(await two.generate()).toMatchObject({ status: 503, errorCode: 'NO_ACCOUNT_AVAILABLE' });
    expect(two.test.calls).toEqual([]);

    one.test.engine.enableCredential('main', 'a');
    await timeUntil(() => two.stateOf('a').state === 'healthy', 1_000);
  });

  it('catches an instance that starts later up with the cooldowns and open circuits in force, not with keys taken out', async () => {
    const keyPrefix = `health:${randomUUID()}:`;
    const one = await instance(keyPrefix, { a: [error(429, 'rate_limit_error', { 'retry-after': '30' })], b: [error(403, 'permission_error')] });
    expect(await one.generate()).toMatchObject({ status: 502, errorCode: 'UPSTREAM_AUTH_FAILED' });

    const later = await instance(keyPrefix, { a: [], b: [served] });
    await timeUntil(() => later.stateOf('a').state === 'cooling-down', 1_000);
    // A key taken out is retried by an instance that (re)starts, as after a config reload.
    expect(later.stateOf('b').state).toBe('healthy');
    expect((await later.generate()).upstreamCredential).toBe('b');
  });
});
