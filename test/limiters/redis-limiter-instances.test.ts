import { randomUUID } from 'node:crypto';
import type { Release } from '@signalbox/engine';
import { createRedisLimiter, type RedisLimiter, type RedisLimiterOptions } from '@signalbox/limiter-redis';
import Redis from 'ioredis';
import { startRedis, type TestRedis } from '../helpers/start-redis';
import { refusalOf } from './describe-limiter-contract';

/**
 * Two limiter instances, each on a connection of its own as two gateway processes would be, sharing
 * one real Redis: one key's concurrency, queue and windows hold across both, and the slot of an
 * instance that dies comes back within the lease.
 */
let redis: TestRedis;
const connections: Redis[] = [];
const limiters: RedisLimiter[] = [];
const never = new AbortController().signal;

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(limiters.splice(0).map(limiter => limiter.close()));
  connections.splice(0).forEach(connection => connection.disconnect());
});
afterAll(async () => {
  await redis?.stop();
});

function connect(): Redis {
  const connection = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  connections.push(connection);
  return connection;
}

/** Two instances on two connections under one key prefix, on one clock the test moves. */
function twoInstances(options: Partial<RedisLimiterOptions> = {}) {
  const clock = { now: 0 };
  const keyPrefix = `instances:${randomUUID()}:`;
  const make = () => {
    const connection = connect();
    const limiter = createRedisLimiter({ redis: connection, keyPrefix, now: () => clock.now, leaseMs: 60_000, pollIntervalMs: 5, ...options });
    limiters.push(limiter);
    return { connection, limiter };
  };
  return { clock, keyPrefix, one: make(), two: make() };
}

describe('two Redis limiter instances sharing one key', () => {
  it('never hold more than the key’s 4 slots across both, and serve every queued request', async () => {
    const { one, two } = twoInstances();
    const limits = { concurrency: 4, queueSize: 20, queueTimeoutMs: 10_000 };
    let active = 0;
    let mostActive = 0;
    let served = 0;
    // The first holders keep their slots until four are held at once (or a bound passes, for a
    // limiter that never grants the fourth), so the peak does not depend on the machine's speed.
    let fourHeld!: () => void;
    const allFourHeld = new Promise<void>(resolve => (fourHeld = resolve));
    const request = async (index: number) => {
      const instance = index % 2 === 0 ? one : two;
      const release = await instance.limiter.acquire('key_shared', limits, never);
      active++;
      mostActive = Math.max(mostActive, active);
      if (active === 4) fourHeld();
      if (served === 0) await Promise.race([allFourHeld, new Promise(resolve => setTimeout(resolve, 5_000).unref())]);
      await instance.connection.ping(); // holds the slot for a round trip
      active--;
      served++;
      release();
    };
    await Promise.all(Array.from({ length: 24 }, (_, index) => request(index)));
    expect([mostActive, served]).toEqual([4, 24]);
  });

  it('serves waiters of both instances in their order of arrival', async () => {
    const { one, two } = twoInstances();
    const limits = { concurrency: 1, queueSize: 4 };
    const holder = await one.limiter.acquire('key_shared', limits, never);
    const order: string[] = [];
    const releases: Release[] = [];
    const waiters: Promise<void>[] = [];
    for (const [name, instance] of [['a', two], ['b', one], ['c', two], ['d', one]] as const) {
      waiters.push(
        instance.limiter.acquire('key_shared', limits, never).then(release => {
          order.push(name);
          releases.push(release);
        }),
      );
      await instance.connection.ping(); // its acquire script has run: it is queued
    }
    holder();
    for (let served = 1; served <= 4; served++) {
      await waitFor(() => order.length === served);
      releases[served - 1]!();
    }
    await Promise.all(waiters);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('share one queue: the third waiter is refused on either instance', async () => {
    const { clock, one, two } = twoInstances();
    const limits = { concurrency: 1, queueSize: 2 };
    const holder = await one.limiter.acquire('key_shared', limits, never);
    clock.now = 4_000;
    const waiters: Promise<Release>[] = [];
    for (const instance of [one, two]) {
      waiters.push(instance.limiter.acquire('key_shared', limits, never));
      await instance.connection.ping(); // its acquire script has run: it is queued
    }
    for (const instance of [one, two]) {
      const error = await refusalOf(instance.limiter.acquire('key_shared', limits, never));
      expect([error.code, error.status, error.message]).toEqual(['QUEUE_FULL', 429, 'The queue for this key is full: 1 request(s) running and 2 waiting (at most 2). Retry later.']);
      // No history: hold time = the oldest holder's age, 4000 → max(1000, 0) + 2 waiters × 4000 / 1.
      expect(error.retryAfterMs).toBe(9_000);
    }
    holder();
    (await waiters[0]!)();
    (await waiters[1]!)();
  });

  it('pass the slot of a waiter whose client left on one instance to the waiter behind it on the other', async () => {
    const { keyPrefix, one, two } = twoInstances();
    const limits = { concurrency: 1, queueSize: 2 };
    const holder = await one.limiter.acquire('key_shared', limits, never);
    const leaving = new AbortController();
    const first = two.limiter.acquire('key_shared', limits, leaving.signal);
    await two.connection.ping();
    const second = one.limiter.acquire('key_shared', limits, never);
    await one.connection.ping();
    const reason = new Error('client went away');
    leaving.abort(reason);
    await expect(first).rejects.toBe(reason);
    await two.connection.ping(); // its leave script has run
    holder();
    const release = await second;
    // The ticket of the client that left is gone from the shared queue: only `third` waits.
    const third = two.limiter.acquire('key_shared', limits, never);
    await two.connection.ping();
    expect(await one.connection.zrange(`${keyPrefix}{key_shared}:gate:queue`, '0', '-1')).toHaveLength(1);
    release();
    (await third)();
  });

  it('share request and token windows, refusing with the time left in the shared window', async () => {
    const { clock, one, two } = twoInstances();
    await one.limiter.admit('key_shared', { requests: 3, windowSeconds: 10 }, 0);
    await two.limiter.admit('key_shared', { requests: 3, windowSeconds: 10 }, 0);
    clock.now = 4_000;
    await one.limiter.admit('key_shared', { requests: 3, windowSeconds: 10 }, 0);
    for (const instance of [one, two]) {
      const error = await refusalOf(instance.limiter.admit('key_shared', { requests: 3, windowSeconds: 10 }, 0));
      expect([error.code, error.retryAfterMs]).toEqual(['RATE_LIMITED', 6_000]);
    }
    await one.limiter.admit('key_tokens', { tokens: 100 }, 60);
    await two.limiter.charge('key_tokens', { tokens: 100 }, 30);
    const error = await refusalOf(two.limiter.admit('key_tokens', { tokens: 100 }, 20));
    expect(error.message).toContain('needs about 20 (estimated) and only 10 are left');
  });

  it('admit exactly the window’s room when both instances race for it', async () => {
    const { one, two } = twoInstances();
    const limits = { requests: 10 };
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? one : two).limiter.admit('key_race', limits, 0)));
    expect(outcomes.filter(outcome => outcome.status === 'fulfilled')).toHaveLength(10);
  });
});

describe('leases', () => {
  it('free a killed instance’s slot within leaseMs, to a waiter of the other instance first', async () => {
    const { clock, one, two } = twoInstances({ leaseMs: 1_000, heartbeatMs: 60_000 });
    const limits = { concurrency: 1, queueSize: 1, queueTimeoutMs: 10_000 };
    await one.limiter.acquire('key_killed', limits, never);
    // The instance dies holding its slot: no release, no heartbeat ever again.
    one.connection.disconnect();
    clock.now = 999;
    expect((await refusalOf(two.limiter.acquire('key_killed', { concurrency: 1 }, never))).code).toBe('CONCURRENCY_LIMITED');
    const waiter = two.limiter.acquire('key_killed', limits, never);
    await two.connection.ping();
    clock.now = 1_000;
    // The waiter's next poll drops the expired lease and takes the slot; a newcomer queues behind it.
    const release = await waiter;
    expect((await refusalOf(two.limiter.acquire('key_killed', { concurrency: 1 }, never))).code).toBe('CONCURRENCY_LIMITED');
    release();
  });

  it('keep a running request’s slot past leaseMs while its heartbeat renews it', async () => {
    const { clock, keyPrefix, one, two } = twoInstances({ leaseMs: 1_000, heartbeatMs: 5 });
    const release = await one.limiter.acquire('key_alive', { concurrency: 1 }, never);
    const holders = `${keyPrefix}{key_alive}:gate:holders`;
    for (const now of [900, 1_800, 2_700]) {
      clock.now = now;
      await waitFor(async () => Number((await two.connection.zrange(holders, '0', '0', 'WITHSCORES'))[1]) === now + 1_000);
      expect((await refusalOf(two.limiter.acquire('key_alive', { concurrency: 1 }, never))).code).toBe('CONCURRENCY_LIMITED');
    }
    release();
    await one.connection.ping();
    await expect(two.limiter.acquire('key_alive', { concurrency: 1 }, never)).resolves.toEqual(expect.any(Function));
  });

  it('free a queued ticket whose instance died, so the queue does not stay full', async () => {
    const { clock, one, two } = twoInstances({ leaseMs: 1_000, heartbeatMs: 60_000 });
    const limits = { concurrency: 1, queueSize: 1 };
    await two.limiter.acquire('key_ticket', limits, never);
    void one.limiter.acquire('key_ticket', limits, never).catch(() => {});
    await one.connection.ping();
    one.connection.disconnect();
    expect((await refusalOf(two.limiter.acquire('key_ticket', limits, never))).code).toBe('QUEUE_FULL');
    clock.now = 1_000;
    // The dead waiter's ticket expired with the holder's lease: both are gone, so this one holds at once.
    await expect(two.limiter.acquire('key_ticket', limits, never)).resolves.toEqual(expect.any(Function));
  });
});

describe('round trips', () => {
  /** Scripts Redis has run so far, from its own command statistics. */
  async function scriptsRun(connection: Redis): Promise<number> {
    const stats = await connection.info('commandstats');
    return [...stats.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
  }

  it('sends nothing to Redis to admit or charge a key without windows or quota, and one script to admit a key with one', async () => {
    const { one } = twoInstances();
    const observer = connect();
    const before = await scriptsRun(observer);
    await one.limiter.admit('key_unlimited', { concurrency: 4 }, 500);
    await one.limiter.charge('key_unlimited', { concurrency: 4 }, 500);
    expect((await scriptsRun(observer)) - before).toBe(0);
    await one.limiter.admit('key_limited', { requests: 10 }, 500);
    expect((await scriptsRun(observer)) - before).toBe(1);
  });
});

describe('Redis gone at run time', () => {
  it('rejects admit and acquire with 503 LIMITER_UNAVAILABLE, while charge reports instead of throwing', async () => {
    const own = await startRedis();
    const reported: Error[] = [];
    const limiter = createRedisLimiter({ redis: own.url, keyPrefix: 'gone:', onError: error => void reported.push(error) });
    limiters.push(limiter);
    await limiter.admit('key_a', { requests: 5 }, 0);
    await own.stop();
    const admitted = await refusalOf(limiter.admit('key_a', { requests: 5 }, 0));
    expect([admitted.code, admitted.status, admitted.retryable, admitted.retryAfterMs]).toEqual(['LIMITER_UNAVAILABLE', 503, true, 1_000]);
    expect(admitted.message).toBe('The gateway cannot reach its shared limits store, so this request was not admitted. Retry shortly.');
    expect((await refusalOf(limiter.acquire('key_a', { concurrency: 1 }, never))).code).toBe('LIMITER_UNAVAILABLE');
    await expect(limiter.charge('key_a', { tokens: 100 }, 10)).resolves.toBeUndefined();
    expect(reported).toEqual([expect.objectContaining({ code: 'LIMITER_UNAVAILABLE' })]);
  });
});

/** Waits, in short real steps, for a condition that depends on Redis round trips or polls. */
async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('Condition not met in time');
    await new Promise(resolve => setTimeout(resolve, 5));
  }
}

describe('createRedisLimiter options', () => {
  it('refuses a poll interval that would let queue tickets expire between polls', () => {
    expect(() => createRedisLimiter({ redis: 'redis://127.0.0.1:1', leaseMs: 100, pollIntervalMs: 50 })).toThrow(
      new RangeError('pollIntervalMs (50) must be above 0 and under half of leaseMs (100), or queue tickets expire between polls.'),
    );
  });
});
