import type { AffinityPin, AffinityStore } from './affinity-store';

type Entry = { pin: AffinityPin; expiresAt: number };

/**
 * An `AffinityStore` in process memory, on the engine's clock (`now`): at most `maxConversations`
 * pins, the least recently looked up or set dropped first, each gone once idle past its expiry. All
 * of it is synchronous map work.
 */
export function createMemoryAffinityStore(options: { now(): number; maxConversations: number }): AffinityStore & { readonly size: number } {
  const { now, maxConversations } = options;
  // A Map iterates in insertion order: every use re-inserts its entry, so the first is the least recently used.
  const entries = new Map<string, Entry>();
  const put = (key: string, entry: Entry) => {
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > maxConversations) entries.delete(entries.keys().next().value!);
  };
  return {
    get(key, idleMs) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(key);
        return undefined;
      }
      put(key, { pin: entry.pin, expiresAt: now() + idleMs });
      return entry.pin;
    },
    set(key, pin, idleMs) {
      put(key, { pin, expiresAt: now() + idleMs });
    },
    get size() {
      return entries.size;
    },
  };
}
