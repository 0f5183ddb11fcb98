export { createRedisLimiter, DEFAULT_LEASE_MS, DEFAULT_POLL_INTERVAL_MS, type RedisLimiter, type RedisLimiterOptions } from './create-redis-limiter';
