import type { StoreSweep } from '@signalbox/accounts';

/** What every call on a closed store rejects with. */
export const CLOSED_MESSAGE = 'The PostgreSQL account store is closed.';

/** Sweeps that report while they run, and a gate that lets calls wait for the ones running. */
export type SweepTracker = {
  /** The sweeps, each adding its promise to the running set until it settles. */
  track(sweeps: readonly StoreSweep[]): StoreSweep[];
  /** Resolves once every sweep running now has finished (failed ones included); `undefined` when none runs. */
  idle(): Promise<void> | undefined;
};

/**
 * Tracks the store's timer sweeps. On PostgreSQL a sweep is network I/O on its own connection, so
 * without this a call made after a sweep started could run before the sweep's release or deletion
 * committed; every public call waits for the sweeps already running, which makes what the timer did
 * visible to the next call, as it is on the synchronous SQLite store.
 */
export function createSweepTracker(): SweepTracker {
  const running = new Set<Promise<unknown>>();
  return {
    track(sweeps) {
      return sweeps.map(sweep => (now: number) => {
        const promise = sweep(now);
        running.add(promise);
        const forget = () => running.delete(promise);
        promise.then(forget, forget);
        return promise;
      });
    },
    idle() {
      // Nothing to wait for on almost every call: no promise made then.
      return running.size === 0 ? undefined : Promise.allSettled([...running]).then(() => undefined);
    },
  };
}

/**
 * The same methods, each first waiting for the sweeps running (`idle`) and refusing once `isClosed`
 * says the store was closed (a pool the host passed in stays usable after `close`, the store does not).
 */
export function gateMethods<Methods extends object>(
  methods: Methods,
  gate: { idle(): Promise<void> | undefined; isClosed(): boolean },
): Methods {
  const gated: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(methods)) {
    const call = method as (...values: unknown[]) => Promise<unknown>;
    gated[name] = (...parameters: unknown[]) => {
      if (gate.isClosed()) return Promise.reject(new Error(CLOSED_MESSAGE));
      const sweeping = gate.idle();
      return sweeping ? sweeping.then(() => call(...parameters)) : call(...parameters);
    };
  }
  return gated as Methods;
}
