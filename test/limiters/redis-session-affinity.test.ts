import { randomUUID } from 'node:crypto';
import type { AffinityOutcome, AffinityStore, Schedule } from '@signalbox/engine';
import {
  createManualSchedule,
  createTestEngine,
  messagesRateLimited,
  messagesServed as served,
  messagesServedMany as servedMany,
  type ScriptedAnswer,
  type TestEngine,
} from '@signalbox/engine/testing';
import { createRedisAffinityStore } from '@signalbox/limiter-redis';
import { Redis } from 'ioredis';
import { startRedis, type TestRedis } from '../helpers/start-redis';
import { startStallingProxy } from '../helpers/start-stalling-proxy';
import { findFreePort } from '../helpers/throwaway-process';

/**
 * Engines, each on a Redis connection of its own as gateway instances would be, keeping
 * conversations on their credentials through one real Redis: what one instance pinned, another
 * continues; the pin's idle expiry is the key's own; a Redis that is away or silent costs a
 * conversation its pin, never its request.
 */
let redis: TestRedis;
let inspector: Redis;
const connections: Redis[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  redis = await startRedis();
  inspector = new Redis(redis.url);
});
beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));
afterEach(async () => {
  jest.restoreAllMocks();
  await Promise.all(closers.splice(0).map(close => close()));
  connections.splice(0).forEach(connection => connection.disconnect());
});
afterAll(async () => {
  inspector?.disconnect();
  await redis?.stop();
});

const IDLE_MS = 3_600_000;
const rateLimited = messagesRateLimited(30);

type Pool = { a: readonly ScriptedAnswer[]; b: readonly ScriptedAnswer[]; c: readonly ScriptedAnswer[] };

/**
 * A client of its own, as each instance has, failing a command after one reconnection attempt. On
 * `disconnect` ioredis waits `disconnectTimeout` for a socket that may already be closed (a refused
 * connection): none here, so nothing outlives the test.
 */
function connection(url = redis.url): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, disconnectTimeout: 0 });
  client.on('error', () => {});
  connections.push(client);
  return client;
}

/**
 * An instance: an engine whose route's one Messages upstream pools credentials `a`, `b` and `c`,
 * its pins in `affinityStore`, serving the account and key of `sibling` when given (one database).
 */
async function instance(affinityStore: AffinityStore, answers: Pool, sibling?: TestEngine) {
  const outcomes: AffinityOutcome[] = [];
  const test = await createTestEngine({
    upstreams: {
      main: {
        protocol: 'anthropic-messages',
        credentials: Object.entries(answers).map(([name, scripted]) => ({ name, answers: scripted })),
      },
    },
    routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'main', model: 'claude-upstream' }] }],
    sessionAffinity: { idleTimeoutMs: IDLE_MS },
    affinityStore,
    observer: { sessionAffinity: outcome => void outcomes.push(outcome) },
    ...(sibling && { accountsOf: sibling }),
  });
  closers.push(() => test.engine.close());
  /** One turn of the conversation `session` (its agent's `session_id` header): the record of what served it. */
  const turn = async (session: string) => {
    const exchange = await test.open('openai-responses', { session_id: session });
    await exchange.generate({ model: 'client-model', input: 'Say hello' }, new AbortController().signal);
    return (await test.recorded(test.records.length + 1)).at(-1)!;
  };
  return { test, turn, outcomes };
}

/** The pins kept under `keyPrefix`, by their text, with the milliseconds each has left. */
async function keptPins(keyPrefix: string): Promise<{ value: string | null; pttl: number }[]> {
  const keys = await inspector.keys(`${keyPrefix}*`);
  return Promise.all(keys.map(async key => ({ value: await inspector.get(key), pttl: await inspector.pttl(key) })));
}

describe('session affinity shared through Redis', () => {
  it('continues on a second instance the conversation the first pinned, on its credential, and a move on one is followed by the other', async () => {
    const keyPrefix = `affinity:${randomUUID()}:`;
    const one = await instance(createRedisAffinityStore({ redis: connection(), keyPrefix }), { a: servedMany(3), b: servedMany(3), c: servedMany(3) });
    const two = await instance(createRedisAffinityStore({ redis: connection(), keyPrefix }), { a: servedMany(3), b: servedMany(3), c: [rateLimited] }, one.test);

    // Three conversations spread over the pool: the third lands on c, where a fresh instance's first request would not go.
    const first = [await one.turn('session-one'), await one.turn('session-two'), await one.turn('session-three')];
    expect(first.map(record => record.upstreamCredential)).toEqual(['a', 'b', 'c']);
    const pins = await keptPins(keyPrefix);
    expect(pins.map(pin => pin.value).sort()).toEqual(['["main","a"]', '["main","b"]', '["main","c"]']);

    expect((await two.turn('session-two')).upstreamCredential).toBe('b');
    expect(two.outcomes).toEqual([{ route: 'client-model', result: 'kept', upstream: 'main', credential: 'b' }]);
    expect(two.test.calls.map(call => call.credential)).toEqual(['b']);

    // c answers the second instance 429: the conversation moves there, and the first instance follows the move.
    const moved = await two.turn('session-three');
    expect(moved.upstreamCredential).not.toBe('c');
    expect(moved.warnings).toContain(`sessionAffinity (moved from main/c to main/${moved.upstreamCredential}: cooling-down)`);
    const calls = one.test.calls.length;
    expect((await one.turn('session-three')).upstreamCredential).toBe(moved.upstreamCredential);
    expect(one.test.calls.slice(calls).map(call => call.credential)).toEqual([moved.upstreamCredential]);
    expect(one.outcomes.at(-1)).toMatchObject({ result: 'kept', credential: moved.upstreamCredential });
  });

  it('keeps each pin for the idle time as the key’s own expiry, restarted by each lookup', async () => {
    const keyPrefix = `affinity:${randomUUID()}:`;
    const one = await instance(createRedisAffinityStore({ redis: connection(), keyPrefix }), { a: servedMany(2), b: [], c: [] });
    await one.turn('session-one');
    const [pin] = await keptPins(keyPrefix);
    expect(pin!.pttl).toBeGreaterThan(IDLE_MS - 60_000);
    expect(pin!.pttl).toBeLessThanOrEqual(IDLE_MS);

    // As if the conversation had been idle for all but five seconds of its time: its next turn restarts it.
    const [key] = await inspector.keys(`${keyPrefix}*`);
    await inspector.pexpire(key!, 5_000);
    await one.turn('session-one');
    const [refreshed] = await keptPins(keyPrefix);
    expect(refreshed).toMatchObject({ value: '["main","a"]' });
    expect(refreshed!.pttl).toBeGreaterThan(IDLE_MS - 60_000);
  });

  it('serves every request while Redis is unreachable, as a conversation without a pin, reporting it once', async () => {
    const closedPort = await findFreePort();
    const errors: Error[] = [];
    // The lookup's timeout never fires here (a schedule nobody advances): the refused connection itself answers.
    const { schedule } = createManualSchedule();
    const store = createRedisAffinityStore({ redis: connection(`redis://127.0.0.1:${closedPort}`), schedule, onError: error => errors.push(error) });
    const one = await instance(store, { a: servedMany(2), b: servedMany(2), c: [] });

    const records = [await one.turn('session-one'), await one.turn('session-one')];
    expect(records.map(record => record.status)).toEqual([200, 200]);
    // Without its pin the conversation's second turn is a new one, on the pool's next credential.
    expect(one.outcomes.map(outcome => outcome.result)).toEqual(['new', 'new']);
    expect(records.map(record => record.upstreamCredential)).toEqual(['a', 'b']);
    // Two failed lookups and two failed pins: one report.
    expect(errors).toHaveLength(1);
  });

  it('gives up a lookup that Redis does not answer within its timeout, and the request goes on', async () => {
    const proxy = await startStallingProxy(redis.port);
    closers.push(async () => {
      proxy.resume();
      await proxy.close();
    });
    const keyPrefix = `affinity:${randomUUID()}:`;
    const manual = createManualSchedule();
    let lookupStarted!: () => void;
    const started = new Promise<void>(resolve => (lookupStarted = resolve));
    const schedule: Schedule = (callback, ms) => {
      lookupStarted();
      return manual.schedule(callback, ms);
    };
    const errors: Error[] = [];
    const client = connection(`redis://127.0.0.1:${proxy.port}`);
    await client.ping();
    const store = createRedisAffinityStore({ redis: client, keyPrefix, lookupTimeoutMs: 300, schedule, onError: error => errors.push(error) });
    const one = await instance(store, { a: [served], b: [], c: [] });

    proxy.stall();
    const turn = one.turn('session-one');
    await started;
    expect(manual.waiting()).toEqual([300]);
    manual.advance(300);
    expect(await turn).toMatchObject({ status: 200, upstreamCredential: 'a' });
    expect(errors.map(error => error.message)).toEqual([expect.stringContaining('within 300 ms')]);
  });
});
