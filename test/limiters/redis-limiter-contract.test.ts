import { randomUUID } from 'node:crypto';
import { createRedisLimiter, type RedisLimiter } from '@signalbox/limiter-redis';
import Redis from 'ioredis';
import { startRedis, type TestRedis } from '../helpers/start-redis';
import { describeLimiterContract, refusalOf } from './describe-limiter-contract';

/**
 * The limiter contract on a real Redis: one server per file, one connection shared by the limiters
 * of each test, each limiter under a key prefix of its own so tests never see each other's state.
 */
let redis: TestRedis;
let client: Redis;
const limiters: RedisLimiter[] = [];

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
});
afterEach(async () => {
  await Promise.all(limiters.splice(0).map(limiter => limiter.close()));
});
afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

describeLimiterContract('createRedisLimiter', () => ({
  createLimiter(options) {
    // A lease far longer than any clock jump of the suite: leases expiring is tested on its own.
    const limiter = createRedisLimiter({ redis: client, keyPrefix: `contract:${randomUUID()}:`, leaseMs: 3_600_000, pollIntervalMs: 10, ...options });
    limiters.push(limiter);
    return limiter;
  },
  async settle() {
    // Commands run in order on the one connection: once these two round trips are back, every call
    // made before them has run, and every poll a reply of theirs started has run too.
    await client.ping();
    await client.ping();
    await new Promise(resolve => setImmediate(resolve));
  },
}));

describe('createRedisLimiter: admitAndAcquire, the windows and a slot in one round trip', () => {
  const never = new AbortController().signal;
  const open = (now?: () => number) => {
    const limiter = createRedisLimiter({ redis: client, keyPrefix: `enter:${randomUUID()}:`, leaseMs: 3_600_000, pollIntervalMs: 10, ...(now && { now }) });
    limiters.push(limiter);
    return limiter;
  };
  /** The scripts Redis ran for the clients (each a round trip), as its command statistics count them. */
  const scriptCalls = async () => {
    const stats = await client.info('commandstats');
    return [...stats.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
  };

  it('runs one script where admit and acquire run two, and grants the same slot', async () => {
    const limiter = open();
    const limits = { requests: 10, tokens: 1_000, quotaTokens: 10_000, concurrency: 2 };
    const before = await scriptCalls();
    const release = await limiter.admitAndAcquire!('key_a', limits, 40, never);
    expect((await scriptCalls()) - before).toBe(1);
    await limiter.admit('key_a', limits, 40);
    const second = await limiter.acquire('key_a', limits, never);
    expect((await scriptCalls()) - before).toBe(3);
    expect((await refusalOf(limiter.admitAndAcquire!('key_a', limits, 40, never))).code).toBe('CONCURRENCY_LIMITED');
    release();
    second();
  });

  it('checks the windows first and takes no slot for a request they refuse; a request refused a slot stays counted', async () => {
    const limiter = open();
    const limits = { requests: 2, concurrency: 1 };
    const release = await limiter.admitAndAcquire!('key_a', limits, 0, never);
    // Counted, then refused a slot: the window now holds both requests.
    expect((await refusalOf(limiter.admitAndAcquire!('key_a', limits, 0, never))).code).toBe('CONCURRENCY_LIMITED');
    release();
    await new Promise(resolve => setImmediate(resolve));
    const refused = await refusalOf(limiter.admitAndAcquire!('key_a', limits, 0, never));
    expect([refused.code, refused.message]).toEqual(['RATE_LIMITED', expect.stringContaining('2 requests')]);
    // The refused request took no slot: the only one is free.
    await expect(limiter.acquire('key_a', { concurrency: 1 }, never)).resolves.toEqual(expect.any(Function));
  });

  it('queues a request when the key’s queue has room and grants it the slot freed', async () => {
    const limiter = open();
    const limits = { requests: 10, concurrency: 1, queueSize: 1 };
    const release = await limiter.admitAndAcquire!('key_a', limits, 0, never);
    let granted = false;
    const waiting = limiter.admitAndAcquire!('key_a', limits, 0, never).then(next => ((granted = true), next));
    expect((await refusalOf(limiter.admitAndAcquire!('key_a', limits, 0, never))).code).toBe('QUEUE_FULL');
    expect(granted).toBe(false);
    release();
    const next = await waiting;
    expect(granted).toBe(true);
    next();
  });

  it('keeps the quota’s own lifetime in Redis: the gate’s keys beside it do not shorten it', async () => {
    const prefix = `enter:${randomUUID()}:`;
    const limiter = createRedisLimiter({ redis: client, keyPrefix: prefix, leaseMs: 1_000, pollIntervalMs: 10 });
    limiters.push(limiter);
    const release = await limiter.admitAndAcquire!('key_a', { quotaTokens: 1_000, quotaPeriodHours: 24, concurrency: 1 }, 10, never);
    const [quotaKey] = await client.keys(`${prefix}*quota*`);
    // The quota period (24 h) plus the idle margin, not the gate's two leases plus the margin (62 s).
    expect(await client.pttl(quotaKey!)).toBeGreaterThan(23 * 3_600_000);
    release();
  });
});
