export { createRedisLimiter, type RedisLimiter, type RedisLimiterOptions } from './create-redis-limiter';
export { createRedisHealthStore, type RedisHealthStoreOptions } from './create-redis-health-store';
export { createRedisAffinityStore, type RedisAffinityStoreOptions } from './create-redis-affinity-store';
