import type { Limiter } from '@signalbox/engine';
import { Redis } from 'ioredis';
import { createRedisGate } from './create-redis-gate';
import { createRedisRateLimits } from './create-redis-rate-limits';
import { defineScripts } from './define-scripts';
import { DEFAULT_COMMAND_TIMEOUT_MS } from './limiter-unavailable';

/** How long a concurrency slot or queue ticket lives without renewal: a dead instance's slots return within it. */
export const DEFAULT_LEASE_MS = 10_000;
/** How often a queued waiter asks Redis whether its ticket was granted a slot (and renews the ticket). */
export const DEFAULT_POLL_INTERVAL_MS = 50;

export type RedisLimiterOptions = {
  /**
   * An ioredis client (the caller keeps it and closes it) or a `redis://` URL (the limiter opens
   * a client of its own that fails commands after `DEFAULT_COMMAND_TIMEOUT_MS` and one reconnection
   * attempt, and `close()` closes it).
   */
  redis: Redis | string;
  /**
   * The clock of every limit. Default: the Redis server's clock (`TIME`), one clock for every
   * instance. Tests inject theirs and move it instead of waiting. (The queue wait,
   * `queueTimeoutMs`, and the heartbeat and poll intervals are timers.)
   */
  now?: () => number;
  /** Prefix of every Redis key the limiter writes (default `signalbox:limits:`). */
  keyPrefix?: string;
  /** Lifetime of a slot's lease and a queue ticket without renewal (default 10 000 ms). */
  leaseMs?: number;
  /** How often a held slot's lease is renewed (default a third of `leaseMs`). */
  heartbeatMs?: number;
  /** How often a queued waiter polls its ticket (default 50 ms; must stay under half of `leaseMs`). */
  pollIntervalMs?: number;
  /**
   * Failures no request awaits: a `charge` or `Release` that could not reach Redis, a heartbeat that
   * failed or found its lease expired. Default: ignored (a lost release frees its slot when its lease
   * expires; a lost charge undercounts the window).
   */
  onError?: (error: Error) => void;
};

/** A `Limiter` whose state is in Redis; `close()` stops its heartbeats and closes a client it opened. */
export type RedisLimiter = Limiter & { close(): Promise<void> };

/**
 * The engine's `Limiter` for several gateway instances: request and token windows, the token quota
 * and the concurrency gate with its bounded FIFO queue, all in Redis and each call one atomic Lua
 * script (`admitAndAcquire` too: a request waits on one round trip), so every instance sees and
 * enforces one shared state and every `Retry-After` is computed from it. Refusals are those of the memory limiter; Redis being unreachable is 503
 * `LIMITER_UNAVAILABLE` from `admit` and `acquire` (`charge` never throws, as the interface says).
 */
export function createRedisLimiter(options: RedisLimiterOptions): RedisLimiter {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  if (!(pollIntervalMs > 0 && pollIntervalMs * 2 < leaseMs)) {
    throw new RangeError(`pollIntervalMs (${pollIntervalMs}) must be above 0 and under half of leaseMs (${leaseMs}), or queue tickets expire between polls.`);
  }
  const ownsClient = typeof options.redis === 'string';
  const redis =
    typeof options.redis === 'string'
      ? new Redis(options.redis, { maxRetriesPerRequest: 1, commandTimeout: DEFAULT_COMMAND_TIMEOUT_MS, disconnectTimeout: 200 })
      : options.redis;
  const report = options.onError ?? (() => {});
  const run = defineScripts(redis);
  const now = options.now;
  const clock = now === undefined ? () => '' : () => String(Math.floor(now()));
  const keyPrefix = options.keyPrefix ?? 'signalbox:limits:';
  const rates = createRedisRateLimits({ run, keyPrefix, clock });
  const gate = createRedisGate({ run, keyPrefix, clock, leaseMs, heartbeatMs: options.heartbeatMs ?? Math.floor(leaseMs / 3), pollIntervalMs, report });
  return {
    admit: (keyId, limits, estimatedTokens) => rates.admit(keyId, limits, estimatedTokens),
    async charge(keyId, limits, tokens) {
      await rates.charge(keyId, limits, tokens).catch(report);
    },
    acquire: (keyId, limits, signal) => gate.acquire(keyId, limits, signal),
    async admitAndAcquire(keyId, limits, estimatedTokens, signal) {
      const admission = rates.admission(keyId, limits, estimatedTokens);
      // A client gone already is counted and refused as by the two calls, without a slot.
      if (admission === undefined || limits.concurrency === undefined || signal.aborted) {
        await rates.admit(keyId, limits, estimatedTokens);
        return gate.acquire(keyId, limits, signal);
      }
      return gate.acquire(keyId, limits, signal, admission);
    },
    async close() {
      gate.stop();
      if (!ownsClient) return;
      // QUIT waits for Redis; a client that is not connected (Redis gone) just stops reconnecting.
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
