export { createRedisLimiter, type RedisLimiter, type RedisLimiterOptions } from './create-redis-limiter';
