/** What a window holds right now. */
export type WindowState = {
  /** Points counted since the window opened. */
  used: number;
  /** Milliseconds until the window closes and its count starts again from zero (always > 0). */
  msLeft: number;
};

/** Fixed-window counters on an injected clock (see `createFixedWindows`). */
export type FixedWindows = {
  /** The counter's open window, or `undefined` when none is open (never opened, or closed). */
  read(counter: string): WindowState | undefined;
  /**
   * Adds `points` (0 allowed) to the counter's open window, first opening one of `windowMs` from
   * now when none is open, and returns the window as it is afterwards.
   */
  add(counter: string, points: number, windowMs: number): WindowState;
  /** How many windows are kept; closed ones are dropped as the map grows, so this stays bounded. */
  size(): number;
};

/** Below this many windows, closed ones are only dropped when their counter is read again. */
const MIN_SWEEP_SIZE = 1_024;

type Window = { used: number; endsAt: number };

/**
 * Counters that each count points in a fixed window: the window opens with the first point counted
 * and closes `windowMs` later, whatever happens in between; the next point opens a new one. Time is
 * only ever read from `now`, so a test that moves the clock moves every window with it, exactly.
 *
 * Closed windows are forgotten when read, and swept in one pass whenever the map has doubled since
 * the last sweep, so memory follows the number of counters in use rather than every key ever seen.
 */
export function createFixedWindows(now: () => number): FixedWindows {
  const windows = new Map<string, Window>();
  let sweepAtSize = MIN_SWEEP_SIZE;

  function open(counter: string, at: number): Window | undefined {
    const window = windows.get(counter);
    if (window === undefined || window.endsAt > at) return window;
    windows.delete(counter);
    return undefined;
  }

  function sweep(at: number): void {
    for (const [counter, window] of windows) if (window.endsAt <= at) windows.delete(counter);
    sweepAtSize = Math.max(MIN_SWEEP_SIZE, windows.size * 2);
  }

  return {
    read(counter) {
      const at = now();
      const window = open(counter, at);
      return window && { used: window.used, msLeft: window.endsAt - at };
    },
    add(counter, points, windowMs) {
      const at = now();
      let window = open(counter, at);
      if (window === undefined) {
        if (windows.size >= sweepAtSize) sweep(at);
        window = { used: 0, endsAt: at + windowMs };
        windows.set(counter, window);
      }
      window.used += points;
      return { used: window.used, msLeft: window.endsAt - at };
    },
    size: () => windows.size,
  };
}
