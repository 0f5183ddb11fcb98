export { createRedisLimiter, type RedisLimiter, type RedisLimiterOptions } from './create-redis-limiter';
export { createRedisHealthStore, type RedisHealthStoreOptions } from './create-redis-health-store';
