import type { Row } from './sql-session';

/** A key row found by its secret's digest, kept for a short while so the next requests with that key read no row. */
export type KeyCache = {
  /**
   * Looks `digest` up: the cached row while it is younger than the bound, else `read()`'s row, kept
   * unless a key changed through this store while it was read (its result may predate the change).
   */
  find(digest: string, read: () => Promise<Row | undefined>): Promise<Row | undefined>;
  /** Forgets every key: after any key change made through this store. */
  clear(): void;
};

/**
 * Key lookups in memory for one instance of several. Other instances change keys in the shared
 * database without telling this one, so a row is used for at most `maxAgeMs` after it was read: a
 * key disabled elsewhere stops working here within that bound, one changed through this store at
 * once. Only keys that were found are kept (an unknown secret is read every time, so guessing
 * cannot fill the cache), under their digest, never under the secret. Expiry is not cached as a
 * verdict: the row carries `expires_at`, compared with the clock on every request. `maxAgeMs` 0
 * turns the cache off.
 */
export function createKeyCache(options: { maxAgeMs: number; now: () => number }): KeyCache {
  const rows = new Map<string, { row: Row; readAt: number }>();
  /** Counts `clear` calls, so a read that overlapped one is not kept. */
  let generation = 0;
  return {
    async find(digest, read) {
      const cached = rows.get(digest);
      const startedAt = options.now();
      if (cached && startedAt - cached.readAt < options.maxAgeMs) return cached.row;
      const before = generation;
      const row = await read();
      if (row === undefined || options.maxAgeMs <= 0) rows.delete(digest);
      else if (generation === before) rows.set(digest, { row, readAt: startedAt });
      return row;
    },
    clear() {
      generation++;
      rows.clear();
    },
  };
}
