import { createConnectionsBusyError } from './create-connections-busy-error';

export type ConnectionGateOptions = {
  /** Requests allowed in flight at once. */
  limit: number;
  /** Longest wait in line for a slot once all are taken; 0 refuses at once. */
  queueTimeoutMs: number;
};

/**
 * Counts the requests in flight to one upstream so that none waits silently: below the limit a
 * request passes with one comparison; at the limit it waits in line (first come, first served) for
 * at most the queue timeout and is then refused with a retryable `UPSTREAM_OVERLOADED`.
 */
export type ConnectionGate = {
  /** Requests holding a slot now. */
  readonly inFlight: number;
  /** Requests waiting in line for a slot now. */
  readonly waiting: number;
  /** Takes a slot and returns `true` when one is free (nobody waits then); `false` means call `waitForSlot`. */
  tryAcquire(): boolean;
  /**
   * Waits for a slot handed over by `release`. Rejects with `UPSTREAM_OVERLOADED` after the queue
   * timeout, or with the signal's reason when the caller aborts first; either way it leaves the line.
   */
  waitForSlot(signal?: AbortSignal): Promise<void>;
  /** Gives a slot back: straight to the longest waiter when there is one. Call once per slot taken. */
  release(): void;
};

type Waiter = { resolve(): void; reject(error: unknown): void };

/** A gate of `limit` slots with a bounded, first-come-first-served line (see `ConnectionGate`). */
export function createConnectionGate(options: ConnectionGateOptions): ConnectionGate {
  const { limit, queueTimeoutMs } = options;
  // A Set keeps insertion order and deletes in O(1): the line, with cheap removal on timeout or abort.
  const line = new Set<Waiter>();
  let inFlight = 0;
  return {
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return line.size;
    },
    tryAcquire() {
      if (inFlight >= limit) return false;
      inFlight += 1;
      return true;
    },
    waitForSlot(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (queueTimeoutMs === 0) return Promise.reject(createConnectionsBusyError(queueTimeoutMs));
      return new Promise<void>((resolve, reject) => {
        const leave = () => {
          line.delete(waiter);
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const waiter: Waiter = {
          resolve: () => (leave(), resolve()),
          reject: error => (leave(), reject(error)),
        };
        const onAbort = () => waiter.reject(signal!.reason);
        const timer = setTimeout(() => waiter.reject(createConnectionsBusyError(queueTimeoutMs)), queueTimeoutMs);
        signal?.addEventListener('abort', onAbort, { once: true });
        line.add(waiter);
      });
    },
    release() {
      const next = line.values().next();
      if (next.done) inFlight -= 1;
      else next.value.resolve(); // the slot changes hands: `inFlight` stays the same
    },
  };
}
