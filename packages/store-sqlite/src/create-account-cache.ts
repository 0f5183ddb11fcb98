import type { ChangeWatcher } from './create-change-watcher';
import { createRowCache } from './create-row-cache';
import type { Statements } from './prepare-statements';

/** `accounts` rows as the request path reads them: the key's account at authentication, then at its hold (`reserve`). */
export type AccountCache = {
  /** The account's row, from memory when cached, else read from the file (and kept, when caching). */
  read(id: string): Record<string, unknown> | undefined;
  /** Forgets one account: after a write through this store changed its row. */
  forget(id: string): void;
  /** Forgets every account. */
  clear(): void;
};

/**
 * Caches account rows when `enabled` (a single gateway on the file, whose holds are in its own
 * memory, so a row changes only by this store's writes, which forget it, or by another
 * connection's, which the watcher sees within its interval). When not enabled every read goes to the
 * file: gateways sharing it change `reserved_micros` on every request, and each must see the others'.
 */
export function createAccountCache(
  statements: Statements,
  watcher: ChangeWatcher,
  enabled: boolean,
): AccountCache {
  if (!enabled) return { read: id => statements.selectAccount.get(id), forget() {}, clear() {} };
  const rows = createRowCache(watcher);
  return {
    read(id) {
      let row = rows.get(id);
      if (!row) {
        row = statements.selectAccount.get(id);
        if (row) rows.set(id, row);
      }
      return row;
    },
    forget: rows.forget,
    clear: rows.clear,
  };
}
