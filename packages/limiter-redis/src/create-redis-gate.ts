import { randomUUID } from 'node:crypto';
import type { KeyLimits } from '@signalbox/accounts';
import {
  DEFAULT_QUEUE_TIMEOUT_MS,
  estimateRetryAfterMs,
  HOLD_AVERAGE_WEIGHT,
  noSlotRefusal,
  queueFullRefusal,
  queueTimeoutRefusal,
  type Release,
} from '@signalbox/engine';
import type { RateAdmission } from './create-redis-rate-limits';
import type { RunScript } from './define-scripts';
import { gateKeys } from './gate-keys';
import { limiterUnavailable } from './limiter-unavailable';

export type RedisGateOptions = {
  run: RunScript;
  keyPrefix: string;
  clock: () => string;
  leaseMs: number;
  heartbeatMs: number;
  pollIntervalMs: number;
  /** Failures nobody awaits: a release, a heartbeat, a lease found expired. */
  report: (error: Error) => void;
};

/** What a gate script says about the key: `[now, active, waiting, averageHoldMs | '', oldestStart | '']`. */
type Snapshot = [string, number, number, string, string];

/**
 * A waiter of this instance. When a script this instance ran reports that it granted the waiter's
 * ticket, the slot is already held in Redis under the ticket's id: `granted` takes it at once,
 * without waiting for the next poll. `abandon` ends the wait when the limiter closes.
 */
type LocalWaiter = { granted(): void; abandon(error: Error): void };

const releaseNothing: Release = () => {};

/**
 * The concurrency gate of every instance at once (see `gate-scripts.ts` for the Redis side). A
 * slot is a lease renewed every `heartbeatMs` while the request runs and freed by `Release`; a
 * waiter holds a ticket in the key's shared queue, renewed by its polls. A slot freed by a call of
 * this instance wakes its local waiter at once; a waiter of another instance finds its slot at its
 * next poll (`pollIntervalMs`). Either way the slot was granted to the queue's head in Redis, so
 * the order is the arrival order across instances whoever notices first.
 */
export function createRedisGate(options: RedisGateOptions) {
  const { run, keyPrefix, clock, leaseMs, heartbeatMs, pollIntervalMs, report } = options;
  const localWaiters = new Map<string, LocalWaiter>();
  const heartbeats = new Set<NodeJS.Timeout>();

  function wake(granted: unknown): void {
    for (const ticket of granted as string[]) localWaiters.get(ticket)?.granted();
  }

  function retryAfterMsOf(snapshot: Snapshot, concurrency: number): number {
    const [now, active, waiting, average, oldestStart] = snapshot;
    return estimateRetryAfterMs({
      averageHoldMs: average === '' ? undefined : Number(average),
      oldestHolderAgeMs: active > 0 && oldestStart !== '' ? Math.max(0, Number(now) - Number(oldestStart)) : 0,
      waiting,
      concurrency,
    });
  }

  function hold(keys: string[], lease: string): Release {
    const heartbeat = setInterval(() => {
      run('heartbeat', keys, [clock(), leaseMs, lease]).then(
        renewed => renewed === 0 && report(new Error(`Concurrency lease ${lease} expired before its heartbeat; its slot may have been given to another request.`)),
        report,
      );
    }, heartbeatMs);
    heartbeat.unref();
    heartbeats.add(heartbeat);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      heartbeats.delete(heartbeat);
      run('release', keys, [clock(), leaseMs, lease, HOLD_AVERAGE_WEIGHT]).then(wake, report);
    };
  }

  /** Takes a ticket out of the queue for good (an abort, a close) and wakes whom that frees a slot for. */
  function leave(keys: string[], ticket: string): void {
    run('leave', keys, [clock(), leaseMs, ticket, '0']).then(reply => wake((reply as [string, string[]])[1]), report);
  }

  function enqueue(keys: string[], ticket: string, limits: KeyLimits & { concurrency: number }, signal: AbortSignal): Promise<Release> {
    const timeoutMs = limits.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS;
    return new Promise<Release>((resolve, reject) => {
      let settled = false;
      let nextPoll: NodeJS.Timeout | undefined;
      const stopWaiting = () => {
        settled = true;
        clearTimeout(timer);
        clearTimeout(nextPoll);
        signal.removeEventListener('abort', onAbort);
        localWaiters.delete(ticket);
      };
      const fail = (error: unknown) => {
        stopWaiting();
        reject(limiterUnavailable(error));
      };
      const poll = async () => {
        if (settled) return;
        try {
          const [outcome, granted] = (await run('poll', keys, [clock(), leaseMs, ticket])) as [string, string[]];
          wake(granted);
          // Settled meanwhile: granted by a reply of this instance, or left (the leave script, sent
          // after this poll, undoes what it did).
          if (settled) return;
          if (outcome === 'held') return (stopWaiting(), resolve(hold(keys, ticket)));
          if (outcome === 'gone') return fail(new Error(`Queue ticket ${ticket} expired: it was not renewed within ${leaseMs} ms.`));
        } catch (error) {
          if (!settled) fail(error);
          return;
        }
        if (!settled) nextPoll = setTimeout(() => void poll(), pollIntervalMs);
      };
      const onAbort = () => {
        stopWaiting();
        reject(signal.reason);
        leave(keys, ticket);
      };
      const timer = setTimeout(() => {
        stopWaiting();
        run('leave', keys, [clock(), leaseMs, ticket, '1']).then(reply => {
          const [outcome, granted, snapshot] = reply as [string, string[], Snapshot];
          wake(granted);
          // A slot granted between the last poll and the timeout was freed in time: it is kept.
          if (outcome === 'held') resolve(hold(keys, ticket));
          else reject(queueTimeoutRefusal(timeoutMs, limits.concurrency, retryAfterMsOf(snapshot, limits.concurrency)));
        }, reject);
      }, timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      localWaiters.set(ticket, {
        granted() {
          stopWaiting();
          resolve(hold(keys, ticket));
        },
        abandon(error) {
          fail(error);
          leave(keys, ticket);
        },
      });
      nextPoll = setTimeout(() => void poll(), pollIntervalMs);
      // The client may have left while the acquire script ran: its ticket leaves the queue at once.
      if (signal.aborted) onAbort();
    });
  }

  /**
   * Takes a slot, a ticket or a refusal; with `admission` (a key with windows or a quota), the
   * request is checked and counted against them first, in the same script: one round trip.
   */
  async function acquire(keyId: string, limits: KeyLimits, signal: AbortSignal, admission?: RateAdmission): Promise<Release> {
    const concurrency = limits.concurrency;
    if (concurrency === undefined) return releaseNothing;
    if (signal.aborted) throw signal.reason;
    const keys = gateKeys(keyPrefix, keyId);
    const id = randomUUID();
    const queueSize = limits.queueSize ?? 0;
    const gateArgs = [clock(), leaseMs, id, concurrency, queueSize];
    const reply = admission
      ? await run('enter', [...keys, ...admission.keys], [...gateArgs, ...admission.args])
      : await run('acquire', keys, gateArgs);
    admission?.check(reply);
    const [outcome, granted, snapshot] = reply as [string, string[], Snapshot];
    wake(granted);
    if (outcome === 'held') return hold(keys, id);
    if (outcome === 'queued') return enqueue(keys, id, { ...limits, concurrency }, signal);
    const retryAfterMs = retryAfterMsOf(snapshot, concurrency);
    throw queueSize === 0 ? noSlotRefusal(concurrency, retryAfterMs) : queueFullRefusal({ active: snapshot[1], waiting: snapshot[2], queueSize, retryAfterMs });
  }

  return {
    acquire,
    /**
     * Stops every heartbeat of this instance (its leases then expire within `leaseMs`) and refuses
     * its queued waiters with 503 `LIMITER_UNAVAILABLE` (their tickets expire the same way).
     */
    stop(): void {
      for (const heartbeat of heartbeats) clearInterval(heartbeat);
      heartbeats.clear();
      for (const waiter of [...localWaiters.values()]) waiter.abandon(new Error('The Redis limiter was closed.'));
    },
  };
}
