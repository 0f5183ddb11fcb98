import { randomUUID } from 'node:crypto';
import { markSubject, type CredentialHealthStore, type HealthChannel, type HealthMark } from '@signalbox/engine';
import type { Redis } from 'ioredis';
import { onceEvery, REPORT_INTERVAL_MS } from './once-every';
import { readHealthMessage, readKeptMark } from './read-health-message';

export type RedisHealthStoreOptions = {
  /**
   * The ioredis client its commands go on (the limiter's may be shared; the caller closes it). Each
   * engine that joins gets a subscriber connection of its own (`redis.duplicate()`), closed when it leaves.
   */
  redis: Redis;
  /** Prefix of every key it writes and of its channel (default `signalbox:health:`). */
  keyPrefix?: string;
  /** The clock a mark's lifetime in Redis is measured on (its `until` is epoch ms). Default `Date.now`. */
  now?: () => number;
  /** A mark that could not be shared or read (Redis unreachable): the engine goes on with what it knows itself. Default: ignored. */
  onError?: (error: Error) => void;
};

/**
 * Upstream health shared by every gateway instance on one Redis: a mark (a credential cooling down
 * or taken out, a circuit opened or closed, a credential enabled) is published on a channel at once,
 * and cooldowns and open circuits are also kept as keys that expire with them, so an instance that
 * starts, or whose subscription was cut, catches up. A credential taken out is published only: an
 * instance that starts tries it once (a config reload), and takes it out again on its 401.
 */
export function createRedisHealthStore(options: RedisHealthStoreOptions): CredentialHealthStore {
  const { redis } = options;
  const prefix = options.keyPrefix ?? 'signalbox:health:';
  const channelName = `${prefix}marks`;
  const now = options.now ?? Date.now;
  const report = (error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error)));
  /** What is kept in Redis; nothing (reported) when it cannot be read. */
  const marks = () =>
    readMarks(redis, prefix).catch((error: unknown) => {
      report(error);
      return [];
    });
  return {
    join(listener) {
      const origin = randomUUID();
      const subscriber = redis.duplicate();
      let subscribed = false;
      subscriber.on('message', (_channel: string, text: string) => {
        const message = readHealthMessage(text);
        if (message && message.origin !== origin) listener(message.mark);
      });
      // ioredis subscribes again by itself after a reconnection; marks published meanwhile are read back.
      subscriber.on('ready', () => {
        if (subscribed) marks().then(found => found.forEach(listener), report);
      });
      // ioredis reports every failed reconnection attempt: one report per 10 s is enough.
      subscriber.on('error', onceEvery(REPORT_INTERVAL_MS, report));
      const ready = subscriber.subscribe(channelName).then(() => (subscribed = true));
      const channel: HealthChannel = {
        share(mark) {
          shareMark(redis, prefix, channelName, { origin, mark }, now()).catch(report);
        },
        marks: async () => {
          // Subscribed first, so nothing published between the read and the subscription is missed.
          const subscribedNow = await ready.then(
            () => true,
            (error: unknown) => (report(error), false),
          );
          return subscribedNow ? marks() : [];
        },
        async leave() {
          await subscriber.quit().catch(() => subscriber.disconnect());
        },
      };
      return channel;
    },
  };
}

/** The key a cooldown or an open circuit is kept under while it lasts. */
function markKey(prefix: string, kind: 'cooldown' | 'circuit-open', mark: HealthMark): string {
  return `${prefix}mark:${kind}:${markSubject(mark)}`;
}

/** Keeps (or drops) the mark's key and publishes it, in one transaction. */
async function shareMark(redis: Redis, prefix: string, channel: string, message: { origin: string; mark: HealthMark }, now: number): Promise<void> {
  const { mark } = message;
  const transaction = redis.multi();
  if (mark.kind === 'cooldown' || mark.kind === 'circuit-open') {
    // A mark that already ended is still published (the others drop it at once) but not kept.
    if (mark.until > now) transaction.set(markKey(prefix, mark.kind, mark), JSON.stringify(mark), 'PX', Math.ceil(mark.until - now));
  } else if (mark.kind === 'circuit-closed') {
    transaction.del(markKey(prefix, 'circuit-open', mark));
  } else if (mark.kind === 'enabled') {
    const upstreamCircuit = markKey(prefix, 'circuit-open', { kind: 'circuit-closed', upstream: mark.upstream });
    transaction.del(markKey(prefix, 'cooldown', mark), markKey(prefix, 'circuit-open', mark), upstreamCircuit);
  }
  transaction.publish(channel, JSON.stringify(message));
  await transaction.exec();
}

/** Every cooldown and open circuit kept now (a handful per upstream: one key per credential and kind). */
async function readMarks(redis: Redis, prefix: string): Promise<HealthMark[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}mark:*`, 'COUNT', 200);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  if (keys.length === 0) return [];
  const values = await redis.mget(...keys);
  return values.flatMap(value => {
    const mark = value === null ? undefined : readKeptMark(value);
    return mark ? [mark] : [];
  });
}
