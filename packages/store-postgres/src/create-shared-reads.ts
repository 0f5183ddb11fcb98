/** Reads of a row by its key, each shared by the calls made while it is in flight. */
export type SharedReads<T> = {
  /**
   * `start()`'s answer for `key`, or the answer of the read of `key` still in flight: an answered
   * read is never reused. A rejection reaches every call that joined the read.
   */
  read(key: string, start: () => Promise<T>): Promise<T>;
  /** No later call joins a read in flight now (they still answer their callers): after a change. */
  forget(): void;
  /** How many reads are in flight (each is forgotten as it settles). */
  readonly inFlight: number;
};

/**
 * Single-flight reads: concurrent calls for one key cost one statement. A read is forgotten the
 * moment it settles, before any call sees its answer, so the map holds only reads in flight.
 */
export function createSharedReads<T>(): SharedReads<T> {
  const running = new Map<string, Promise<T>>();
  return {
    read(key, start) {
      const joined = running.get(key);
      if (joined) return joined;
      // Only this read's own entry: after `forget` a newer read of the key may stand there.
      const settle = () => void (running.get(key) === reading && running.delete(key));
      const reading: Promise<T> = start().then(
        answer => {
          settle();
          return answer;
        },
        (error: unknown) => {
          settle();
          throw error;
        },
      );
      running.set(key, reading);
      return reading;
    },
    forget() {
      running.clear();
    },
    get inFlight() {
      return running.size;
    },
  };
}
