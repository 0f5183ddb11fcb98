import type { Row } from './sql-session';

/** The channel the `api_keys` trigger announces every change of a key on. */
export const API_KEYS_CHANNEL = 'signalbox_api_keys';

/** The most rows a cache keeps at once; beyond it the oldest kept is dropped (it is read again when used). */
export const ANNOUNCED_CACHE_MAX_ENTRIES = 10_000;

/** The channel the `accounts` trigger announces a change of an account's name, subscription, group or ceiling on. */
export const ACCOUNTS_CHANNEL = 'signalbox_accounts';

/**
 * Rows found by a lookup (a key by its secret's digest, an account by its id), kept while every
 * change of them is announced to this instance.
 */
export type AnnouncedCache = {
  /**
   * Looks `digest` up: the kept row, else `read()`'s row, kept only while changes are announced
   * (`setAnnounced(true)`) and no change was announced or made while it was read (its result may
   * predate the change).
   */
  find(digest: string, read: () => Promise<Row | undefined>): Promise<Row | undefined>;
  /** Forgets every key: after a key changed here or was announced as changed. */
  clear(): void;
  /**
   * Whether changes made anywhere are announced to this instance now (its `LISTEN` is in place).
   * Either way everything kept is forgotten: while nothing is announced every lookup reads.
   */
  setAnnounced(announced: boolean): void;
};

/**
 * Key lookups in memory for one instance of several. Other instances change keys in the shared
 * database; every change is announced (`NOTIFY`, by a trigger on `api_keys`) and empties the cache,
 * so a key disabled anywhere stops working here as soon as the announcement arrives. While the
 * listening connection is away nothing is kept and every lookup reads. Only keys that were found
 * are kept (an unknown secret is read every time, so guessing cannot fill the cache), under their
 * digest, never under the secret. Expiry is not cached as a verdict: the row carries `expires_at`,
 * compared with the clock on every request. `enabled: false` reads on every lookup. Accounts as
 * requests read them are kept the same way, their balance (which no announcement covers) at most
 * `maxAgeMs` old.
 */
export function createAnnouncedCache(options: {
  enabled: boolean;
  maxEntries?: number;
  /** How long a kept row is served at most (for columns no announcement covers); default as long as nothing is announced. */
  maxAgeMs?: number;
  now?: () => number;
}): AnnouncedCache {
  const rows = new Map<string, { row: Row; readAt: number }>();
  const { maxAgeMs, now = Date.now } = options;
  const maxEntries = options.maxEntries ?? ANNOUNCED_CACHE_MAX_ENTRIES;
  let announced = false;
  /** Counts the times the cache was emptied, so a read that overlapped one is not kept. */
  let generation = 0;
  const clear = () => {
    generation++;
    rows.clear();
  };
  return {
    async find(digest, read) {
      const cached = rows.get(digest);
      if (cached && (maxAgeMs === undefined || now() - cached.readAt < maxAgeMs)) return cached.row;
      const before = generation;
      const readAt = maxAgeMs === undefined ? 0 : now();
      const row = await read();
      if (row !== undefined && announced && options.enabled && generation === before) {
        if (!cached && rows.size >= maxEntries) rows.delete(rows.keys().next().value!);
        rows.set(digest, { row, readAt });
      }
      return row;
    },
    clear,
    setAnnounced(now) {
      announced = now;
      clear();
    },
  };
}
