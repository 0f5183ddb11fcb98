import { IMPLIED_KEY_LIMITS, type KeyLimits } from '@signalbox/accounts';
import type { Clock } from '../clock/clock';
import { systemClock } from '../clock/system-clock';
import { estimateRetryAfterMs } from './estimate-retry-after-ms';
import { noSlotRefusal, queueFullRefusal, queueTimeoutRefusal } from './limit-refusals';
import type { Release } from './limiter';

/** Longest wait in a key's queue when its limits set none. */
export const DEFAULT_QUEUE_TIMEOUT_MS = IMPLIED_KEY_LIMITS.queueTimeoutMs;
/** Weight of the newest hold time in a key's moving average of hold times. */
export const HOLD_AVERAGE_WEIGHT = 0.2;

type Holder = { startedAt: number };
type Waiter = { admit(): void };

/** One key's slots and queue; exists only while the key has holders or waiters. */
type KeyState = {
  /** The key's limit as the latest `acquire` saw it (limits may change while requests run). */
  concurrency: number;
  /** In grant order, so the first one is the oldest. */
  holders: Set<Holder>;
  waiters: Waiter[];
  averageHoldMs: number | undefined;
};

/** What a key holds right now, for tests and diagnostics. */
export type GateSnapshot = { active: number; waiting: number; averageHoldMs: number | undefined };

/** Per-key concurrency slots with a bounded FIFO queue (see `createConcurrencyGate`). */
export type ConcurrencyGate = {
  /** Resolves with an idempotent release once a slot is held; see `Limiter.acquire` for refusals. */
  acquire(keyId: string, limits: KeyLimits, signal: AbortSignal): Promise<Release>;
  /** The key's state, or `undefined` when it has no holders and no waiters (idle keys are forgotten). */
  snapshot(keyId: string): GateSnapshot | undefined;
  /** How many keys have state; idle keys are dropped, so this never outgrows the keys in use. */
  trackedKeyCount(): number;
};

const releaseNothing: Release = () => {};

/**
 * In-memory concurrency slots per key. A free slot is taken at once; otherwise the request waits in
 * a FIFO queue of at most `queueSize` for up to `queueTimeoutMs` on the clock's `schedule`. A
 * released slot is handed straight to the first waiter, so a newcomer never barges in.
 * `retryAfterMs` follows `estimateRetryAfterMs`.
 */
export function createConcurrencyGate(options: Partial<Pick<Clock, 'now' | 'schedule'>> = {}): ConcurrencyGate {
  const now = options.now ?? systemClock.now;
  const schedule = options.schedule ?? systemClock.schedule;
  const states = new Map<string, KeyState>();

  function stateFor(keyId: string, concurrency: number): KeyState {
    let state = states.get(keyId);
    if (!state) {
      state = { concurrency, holders: new Set(), waiters: [], averageHoldMs: undefined };
      states.set(keyId, state);
    }
    state.concurrency = concurrency;
    return state;
  }

  function dropIfIdle(keyId: string, state: KeyState): void {
    if (state.holders.size === 0 && state.waiters.length === 0 && states.get(keyId) === state) states.delete(keyId);
  }

  function hold(keyId: string, state: KeyState): Release {
    const holder: Holder = { startedAt: now() };
    state.holders.add(holder);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.holders.delete(holder);
      const heldMs = Math.max(0, now() - holder.startedAt);
      state.averageHoldMs =
        state.averageHoldMs === undefined ? heldMs : state.averageHoldMs + HOLD_AVERAGE_WEIGHT * (heldMs - state.averageHoldMs);
      admitWaiters(state);
      dropIfIdle(keyId, state);
    };
  }

  /** Hands free slots to waiters in arrival order, synchronously, before any newcomer can run. */
  function admitWaiters(state: KeyState): void {
    while (state.waiters.length > 0 && state.holders.size < state.concurrency) state.waiters.shift()!.admit();
  }

  /** When a refused request could expect a slot, from the key's hold times and queue. */
  function retryAfterMsOf(state: KeyState): number {
    const oldest = state.holders.values().next().value;
    return estimateRetryAfterMs({
      averageHoldMs: state.averageHoldMs,
      oldestHolderAgeMs: oldest ? Math.max(0, now() - oldest.startedAt) : 0,
      waiting: state.waiters.length,
      concurrency: state.concurrency,
    });
  }

  function enqueue(keyId: string, state: KeyState, timeoutMs: number, signal: AbortSignal): Promise<Release> {
    return new Promise<Release>((resolve, reject) => {
      const stopWaiting = () => {
        cancelTimeout();
        signal.removeEventListener('abort', onAbort);
      };
      const leaveQueue = () => {
        stopWaiting();
        const index = state.waiters.indexOf(waiter);
        if (index !== -1) state.waiters.splice(index, 1);
        dropIfIdle(keyId, state);
      };
      const waiter: Waiter = {
        admit() {
          stopWaiting();
          resolve(hold(keyId, state));
        },
      };
      const onAbort = () => {
        leaveQueue();
        reject(signal.reason);
      };
      const cancelTimeout = schedule(() => {
        leaveQueue();
        reject(queueTimeoutRefusal(timeoutMs, state.concurrency, retryAfterMsOf(state)));
      }, timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      state.waiters.push(waiter);
    });
  }

  async function acquire(keyId: string, limits: KeyLimits, signal: AbortSignal): Promise<Release> {
    const concurrency = limits.concurrency;
    if (concurrency === undefined) return releaseNothing;
    if (signal.aborted) throw signal.reason;
    const state = stateFor(keyId, concurrency);
    admitWaiters(state);
    if (state.waiters.length === 0 && state.holders.size < concurrency) return hold(keyId, state);
    const queueSize = limits.queueSize ?? 0;
    if (state.waiters.length < queueSize) {
      return enqueue(keyId, state, limits.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS, signal);
    }
    const retryAfterMs = retryAfterMsOf(state);
    const error =
      queueSize === 0
        ? noSlotRefusal(concurrency, retryAfterMs)
        : queueFullRefusal({ active: state.holders.size, waiting: state.waiters.length, queueSize, retryAfterMs });
    dropIfIdle(keyId, state);
    throw error;
  }

  return {
    acquire,
    snapshot(keyId) {
      const state = states.get(keyId);
      return state && { active: state.holders.size, waiting: state.waiters.length, averageHoldMs: state.averageHoldMs };
    },
    trackedKeyCount: () => states.size,
  };
}
