import { randomUUID } from 'node:crypto';
import { createRedisLimiter, type RedisLimiter } from '@signalbox/limiter-redis';
import Redis from 'ioredis';
import { startRedis, type TestRedis } from '../helpers/start-redis';
import { describeLimiterContract } from './describe-limiter-contract';

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
