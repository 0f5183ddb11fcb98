import type { NotificationListener } from './listen-notifications';
import type { Row } from './sql-session';

/** The most rows one cache keeps at once; beyond it the oldest kept is dropped (it is read again when used). */
export const ROW_CACHE_MAX_ENTRIES = 10_000;

/** Rows kept in memory while every change of them is announced to this instance. */
export type RowCache = {
  /**
   * Looks `key` up: the kept row, else `read()`'s row, kept only while changes are announced
   * (`setAnnounced(true)`) and nothing was forgotten while it was read (its result may predate the
   * change).
   */
  find(key: string, read: () => Promise<Row | undefined>): Promise<Row | undefined>;
  /** Forgets every row: after a change here or one announced without saying which row. */
  clear(): void;
  /** Forgets the row kept under `key`: after that row changed here or was announced as changed. */
  forget(key: string): void;
  /**
   * Whether changes made anywhere are announced to this instance now (its `LISTEN` is in place).
   * Either way everything kept is forgotten: while nothing is announced every lookup reads.
   */
  setAnnounced(announced: boolean): void;
};

/**
 * Lookups in memory for one instance of several. Other instances change the rows in the shared
 * database; every change is announced (`NOTIFY`, by a trigger) and forgets what it changed, so a
 * key disabled or a subscription ended anywhere is seen here as soon as the announcement arrives.
 * While the listening connection is away nothing is kept and every lookup reads. Only rows that
 * were found are kept (an unknown key is read every time, so guessing cannot fill the cache).
 * `enabled: false` reads on every lookup.
 */
export function createRowCache(options: { enabled: boolean; maxEntries?: number }): RowCache {
  const rows = new Map<string, Row>();
  const maxEntries = options.maxEntries ?? ROW_CACHE_MAX_ENTRIES;
  let announced = false;
  /** Counts the times something was forgotten, so a read that overlapped one is not kept. */
  let generation = 0;
  const clear = () => {
    generation++;
    rows.clear();
  };
  return {
    async find(key, read) {
      const cached = rows.get(key);
      if (cached) return cached;
      const before = generation;
      const row = await read();
      if (row !== undefined && announced && options.enabled && generation === before) {
        if (rows.size >= maxEntries) rows.delete(rows.keys().next().value!);
        rows.set(key, row);
      }
      return row;
    },
    clear,
    forget(key) {
      generation++;
      rows.delete(key);
    },
    setAnnounced(now) {
      announced = now;
      clear();
    },
  };
}

/**
 * Keeps `cache` told about the announcements on `channel`: each one forgets the row its payload
 * names (every row when `perRow` is false), and the cache keeps rows only while `LISTEN` is in place.
 */
export function forgetAnnouncedRows(notifications: NotificationListener, channel: string, cache: RowCache, perRow: boolean): void {
  notifications.subscribe({
    channel,
    onMessage: payload => (perRow ? cache.forget(payload) : cache.clear()),
    onListening: () => cache.setAnnounced(true),
    onLost: () => cache.setAnnounced(false),
  });
}
