import { performance } from 'node:perf_hooks';

/**
 * `action` at most once per `intervalMs` (on `now`, default the monotonic clock); calls in between
 * are dropped. Keeps a Redis outage to one report per interval instead of one per command.
 */
export function onceEvery<Argument>(intervalMs: number, action: (argument: Argument) => void, now: () => number = () => performance.now()): (argument: Argument) => void {
  let last = -Infinity;
  return argument => {
    const time = now();
    if (time - last < intervalMs) return;
    last = time;
    action(argument);
  };
}

/** The least time between two reports that Redis cannot be reached. */
export const REPORT_INTERVAL_MS = 10_000;
