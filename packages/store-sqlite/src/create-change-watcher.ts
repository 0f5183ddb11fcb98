import type { DatabaseSync } from 'node:sqlite';

/** Drops what a cache holds; called when another connection may have changed the rows behind it. */
export type CacheReset = () => void;

export type ChangeWatcher = {
  /**
   * Looks, at most once every `intervalMs` of the store's clock, whether another connection has
   * committed to the file since the last look, and if so runs every reset. Cheap: one
   * `PRAGMA data_version` per interval, nothing in between.
   */
  poll(): void;
  /** Adds a reset to run on the next change seen. */
  onChange(reset: CacheReset): void;
};

/**
 * Watches the file for commits made by other connections: the CLI, the panel of another process, a
 * second gateway. `PRAGMA data_version` changes when another connection commits and never for this
 * connection's own commits (https://www.sqlite.org/pragma.html#pragma_data_version), so the store's
 * own request-path writes never empty its caches; its own admin writes reset what they change
 * themselves. A change made elsewhere is therefore seen by the first `poll` at least `intervalMs`
 * after the previous look: that interval is the bound on how stale a cached key or balance can be.
 */
export function createChangeWatcher(
  database: DatabaseSync,
  options: { intervalMs: number; now: () => number },
): ChangeWatcher {
  const readVersion = database.prepare('PRAGMA data_version');
  const resets: CacheReset[] = [];
  let version = Number(readVersion.get()?.['data_version']);
  let lookedAt = options.now();
  return {
    poll() {
      const at = options.now();
      if (at - lookedAt < options.intervalMs) return;
      lookedAt = at;
      const current = Number(readVersion.get()?.['data_version']);
      if (current === version) return;
      version = current;
      for (const reset of resets) reset();
    },
    onChange(reset) {
      resets.push(reset);
    },
  };
}
