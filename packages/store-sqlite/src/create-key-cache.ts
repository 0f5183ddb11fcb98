import type { ChangeWatcher } from './create-change-watcher';

/** The `api_keys` row a secret's digest matched, kept so the next request with that key reads no row. */
export type KeyCache = {
  /** The row for this digest, when cached and nothing changed it since; runs the watcher's poll first. */
  get(digest: string): Record<string, unknown> | undefined;
  set(digest: string, row: Record<string, unknown>): void;
  /** Forgets every key: after any key change made through this store. */
  clear(): void;
};

/**
 * Key lookups in memory. Only keys that were found are kept (an unknown secret is looked up every
 * time, so guessing cannot fill the cache), under their digest, never under the secret. A change made
 * through this store (status, expiry, models, limits, group, name) clears the cache at once; a change
 * made by another connection clears it within the watcher's interval. Expiry is not cached as a
 * verdict: the row carries `expires_at`, and the caller compares it with its clock on every request.
 */
export function createKeyCache(watcher: ChangeWatcher): KeyCache {
  const rows = new Map<string, Record<string, unknown>>();
  watcher.onChange(() => rows.clear());
  return {
    get(digest) {
      watcher.poll();
      return rows.get(digest);
    },
    set(digest, row) {
      rows.set(digest, row);
    },
    clear() {
      rows.clear();
    },
  };
}
