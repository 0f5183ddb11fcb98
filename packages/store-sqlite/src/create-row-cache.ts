import type { ChangeWatcher } from './create-change-watcher';

/**
 * Rows kept in memory under a key (a key's digest, an account's id), so the request path reads no
 * row for them again, until a write through this store forgets them or the watcher sees another
 * connection's commit and empties the cache.
 */
export type RowCache = {
  /** The row kept under `key`, when cached and nothing changed it since; runs the watcher's poll first. */
  get(key: string): Record<string, unknown> | undefined;
  set(key: string, row: Record<string, unknown>): void;
  /** Forgets one row: after a write through this store changed it. */
  forget(key: string): void;
  /** Forgets every row. */
  clear(): void;
};

/**
 * A cache emptied by the watcher: a change made through this store is forgotten by its caller at
 * once, a change made by another connection within the watcher's interval.
 */
export function createRowCache(watcher: ChangeWatcher): RowCache {
  const rows = new Map<string, Record<string, unknown>>();
  watcher.onChange(() => rows.clear());
  return {
    get(key) {
      watcher.poll();
      return rows.get(key);
    },
    set(key, row) {
      rows.set(key, row);
    },
    forget(key) {
      rows.delete(key);
    },
    clear() {
      rows.clear();
    },
  };
}
