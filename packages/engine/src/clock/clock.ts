/** Runs `callback` once after `ms`; the returned function cancels it. */
export type Schedule = (callback: () => void, ms: number) => () => void;

/**
 * All the engine knows of time, in one value: the time it reads (key expiry, latency, limits,
 * every request's arrival), the waits it sleeps (retry backoff, ledger commit retries) and the
 * callbacks it schedules (request deadlines, the drain's grace, queue waits, ledger commits). A
 * test that replaces it moves all of them together. Its functions are called detached, never as
 * methods.
 */
export type Clock = {
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** Resolves after `ms`; rejects with the signal's reason when `signal` aborts first. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly schedule: Schedule;
};
