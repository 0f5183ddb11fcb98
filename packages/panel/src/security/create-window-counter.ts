export type WindowCounterOptions = {
  /** Events one key may count per window. */
  limit: number;
  windowMs: number;
  /** At most this many keys are tracked; beyond it the oldest window is forgotten. */
  maxKeys: number;
  now: () => number;
};

type Window = { startedAt: number; count: number };

/**
 * Events per key in fixed windows that start at a key's first event, in memory and bounded in
 * keys: `full(key)` says how long until the key may count again (undefined while it may).
 */
export function createWindowCounter(options: WindowCounterOptions) {
  const { limit, windowMs, maxKeys, now } = options;
  const windows = new Map<string, Window>();
  const current = (key: string): Window | undefined => {
    const window = windows.get(key);
    if (window && now() - window.startedAt >= windowMs) {
      windows.delete(key);
      return undefined;
    }
    return window;
  };
  return {
    /** The ms until `key`'s window ends when it has counted `limit` events in it; otherwise undefined. */
    full(key: string): number | undefined {
      const window = current(key);
      return window && window.count >= limit ? window.startedAt + windowMs - now() : undefined;
    },
    /** Counts one event for `key`. */
    add(key: string): void {
      const window = current(key);
      if (window) return void (window.count += 1);
      if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
      windows.set(key, { startedAt: now(), count: 1 });
    },
  };
}
