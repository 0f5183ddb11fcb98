/** How much a prompt cache may hold: entries per credential and credentials, the least recently used going first. */
export type PromptCacheLimits = { maxEntriesPerCredential: number; maxCredentials: number };

/** Cached prefixes per credential, each with a lifetime that a read renews. Bounded by its limits. */
export type PromptCacheStore = {
  /** True when `digest` is cached for `credential` and has not expired; a hit starts its lifetime again. */
  read(credential: string, digest: string, now: number): boolean;
  /** Caches `digest` for `ttlSeconds` (or keeps a longer lifetime it already had). */
  write(credential: string, digest: string, ttlSeconds: number, now: number): void;
  /** Forgets every cached prefix. */
  clear(): void;
};

type Entry = { expiresAt: number; ttlMs: number };

/** An empty store. Maps keep insertion order, so re-inserting on use makes the first key the least recently used. */
export function createPromptCacheStore(limits: PromptCacheLimits): PromptCacheStore {
  const credentials = new Map<string, Map<string, Entry>>();
  const entriesOf = (credential: string): Map<string, Entry> => {
    const entries = credentials.get(credential) ?? new Map<string, Entry>();
    credentials.delete(credential);
    credentials.set(credential, entries);
    evictOldest(credentials, limits.maxCredentials);
    return entries;
  };
  return {
    read(credential, digest, now) {
      const entries = credentials.get(credential);
      const entry = entries?.get(digest);
      if (entries === undefined || entry === undefined) return false;
      entries.delete(digest);
      if (entry.expiresAt <= now) return false;
      entries.set(digest, { expiresAt: now + entry.ttlMs, ttlMs: entry.ttlMs });
      return true;
    },
    write(credential, digest, ttlSeconds, now) {
      const entries = entriesOf(credential);
      const previous = entries.get(digest);
      const kept = previous !== undefined && previous.expiresAt > now ? previous.ttlMs : 0;
      const ttlMs = Math.max(kept, ttlSeconds * 1000);
      entries.delete(digest);
      entries.set(digest, { expiresAt: now + ttlMs, ttlMs });
      evictOldest(entries, limits.maxEntriesPerCredential);
    },
    clear: () => credentials.clear(),
  };
}

function evictOldest(map: Map<string, unknown>, size: number): void {
  for (const key of map.keys()) {
    if (map.size <= size) return;
    map.delete(key);
  }
}
