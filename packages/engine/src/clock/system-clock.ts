import { setTimeout as wait } from 'node:timers/promises';
import type { Clock } from './clock';

/**
 * Real time: `Date.now` and Node's timers. A wait or a scheduled callback keeps the process alive,
 * as what it times does (a request in flight, a drain, a queued request, a ledger commit).
 */
export const systemClock: Clock = {
  now: Date.now,
  sleep: (ms, signal) => (signal === undefined ? wait(ms) : wait(ms, undefined, { signal })),
  schedule(callback, ms) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};
