/**
 * What the simulator has seen, so tests can assert that an upstream call happened or was aborted.
 * `byPath` counts requests per route path (`/v1/responses`, …; anything else under `other`).
 */
export type SimulatorStats = {
  requests: number;
  /** Requests whose client went away before the simulator finished answering. */
  aborted: number;
  /** Requests in flight right now (including `[[sim:hang]]` ones). */
  active: number;
  byPath: Record<string, number>;
};

/** The live, mutable counters behind `stats()`. */
export type StatsCounter = {
  readonly current: SimulatorStats;
  /** A copy that later requests do not change. */
  snapshot(): SimulatorStats;
  /** Zeroes `requests`, `aborted` and `byPath`; `active` keeps counting what is in flight. */
  reset(): void;
};

/** Fresh counters, all zero. */
export function createStatsCounter(): StatsCounter {
  const current: SimulatorStats = { requests: 0, aborted: 0, active: 0, byPath: {} };
  return {
    current,
    snapshot: () => ({ ...current, byPath: { ...current.byPath } }),
    reset() {
      current.requests = 0;
      current.aborted = 0;
      current.byPath = {};
    },
  };
}
