import { systemClock, type AffinityPin, type AffinityStore, type Schedule } from '@signalbox/engine';
import type { Redis } from 'ioredis';
import { onceEvery, REPORT_INTERVAL_MS } from './once-every';
import { keptPinText, readKeptPin } from './read-kept-pin';

/** How long a request waits for its conversation's pin before it goes on without one. */
export const DEFAULT_LOOKUP_TIMEOUT_MS = 250;

export type RedisAffinityStoreOptions = {
  /** The ioredis client its commands go on (the limiter's may be shared; the caller closes it). */
  redis: Redis;
  /** Prefix of every key it writes (default `signalbox:affinity:`). */
  keyPrefix?: string;
  /** The longest a lookup waits for Redis, then the request goes on without a pin. Default 250 ms. */
  lookupTimeoutMs?: number;
  /** Schedules the lookup's timeout (tests pass their own clock's). Default: Node's timers. */
  schedule?: Schedule;
  /** A pin that could not be read or written (Redis unreachable, slow): at most one report per 10 s. Default: ignored. */
  onError?: (error: Error) => void;
};

/**
 * The engine's `AffinityStore` on Redis, so every gateway instance continues a conversation on the
 * credential that served it: one key per conversation, `<keyPrefix><conversation key>`, holding
 * `[upstream, credential]` and expiring after the idle time. A lookup is one `GETEX … PX` (the pin
 * and its expiry restarted in one round trip, Redis 6.2 or later), a new pin one `SET … PX` that no
 * request waits for. Redis unreachable or slow never fails a request: the lookup reads as no pin.
 */
export function createRedisAffinityStore(options: RedisAffinityStoreOptions): AffinityStore {
  const { redis } = options;
  const prefix = options.keyPrefix ?? 'signalbox:affinity:';
  const timeoutMs = options.lookupTimeoutMs ?? DEFAULT_LOOKUP_TIMEOUT_MS;
  const schedule = options.schedule ?? systemClock.schedule;
  const onError = options.onError;
  const report = onError ? onceEvery(REPORT_INTERVAL_MS, onError) : () => {};
  return {
    get(key, idleMs) {
      return new Promise<AffinityPin | undefined>(resolve => {
        const cancel = schedule(() => {
          report(new Error(`session affinity: no answer from Redis within ${timeoutMs} ms; the request goes on without its pin`));
          resolve(undefined);
        }, timeoutMs);
        redis.getex(prefix + key, 'PX', expiryOf(idleMs)).then(
          text => {
            cancel();
            resolve(text === null ? undefined : readKeptPin(text));
          },
          (error: unknown) => {
            cancel();
            report(asError(error));
            resolve(undefined);
          },
        );
      });
    },
    set(key, pin, idleMs) {
      redis.set(prefix + key, keptPinText(pin), 'PX', expiryOf(idleMs)).catch((error: unknown) => report(asError(error)));
    },
  };
}

/** Redis takes whole milliseconds, at least one. */
function expiryOf(idleMs: number): number {
  return Math.max(1, Math.ceil(idleMs));
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
