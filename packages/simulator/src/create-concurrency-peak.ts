import type { ServerResponse } from 'node:http';

/** The most requests the simulator had in flight at once: what a concurrency limit in front of it let through. */
export type ConcurrencyPeak = {
  /** Counts a request in from now until its response closes (finished, cut or abandoned). */
  enter(response: ServerResponse): void;
  /** The highest number in flight at once since creation or the last `reset`. */
  peak(): number;
  /** Starts a new measurement from the number in flight now. */
  reset(): void;
};

/** A gauge of requests in flight that remembers its highest value. */
export function createConcurrencyPeak(): ConcurrencyPeak {
  let active = 0;
  let highest = 0;
  return {
    enter(response) {
      active += 1;
      highest = Math.max(highest, active);
      response.once('close', () => {
        active -= 1;
      });
    },
    peak: () => highest,
    reset() {
      highest = active;
    },
  };
}
