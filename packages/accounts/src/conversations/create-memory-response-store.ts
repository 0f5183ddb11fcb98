import type { FoundItem, ResponseRetention, ResponseStore, StoredJSON, StoredResponse } from './response-store';

/** The size a response counts against its account's cap: the UTF-8 bytes of its stored JSON. */
export function storedResponseBytes(record: StoredResponse): number {
  return Buffer.byteLength(JSON.stringify(record.inputItems)) + Buffer.byteLength(JSON.stringify(record.response));
}

type Entry = { record: StoredResponse; bytes: number };

/** A copy of a stored item read back from its JSON text, as the SQL stores read it, with the text's size. */
function foundItem(item: StoredJSON): FoundItem {
  const text = JSON.stringify(item);
  return { item: JSON.parse(text) as StoredJSON, bytes: Buffer.byteLength(text) };
}

/**
 * The record's referenceable items in order, each under the id clients reference it by: input items
 * by their stored id, then output items by their own `id`. A later item wins over an earlier one.
 */
function listItems(record: StoredResponse): Array<[string, StoredJSON]> {
  const items: Array<[string, StoredJSON]> = record.inputItems.map(stored => [stored.id, stored.item]);
  const output: unknown = record.response['output'];
  for (const item of Array.isArray(output) ? (output as Array<StoredJSON | null>) : []) {
    if (typeof item?.['id'] === 'string') items.push([item['id'], item]);
  }
  return items;
}

/**
 * Stored conversations in process memory, for the memory account store: gone with the process.
 * Age is `createdAt`, then save order (the map's insertion order; a replaced response is saved anew).
 */
export function createMemoryResponseStore(): ResponseStore {
  const responses = new Map<string, Entry>();
  /** Each account's stored total, kept on every save and delete so a save under the cap reads one number. */
  const totals = new Map<string, number>();
  const keyOf = (accountId: string, id: string) => `${accountId}\u0000${id}`;
  const add = (accountId: string, bytes: number) => totals.set(accountId, (totals.get(accountId) ?? 0) + bytes);
  const remove = (key: string): boolean => {
    const entry = responses.get(key);
    if (!entry) return false;
    responses.delete(key);
    add(entry.record.accountId, -entry.bytes);
    return true;
  };
  /** The account's responses oldest first; `sort` is stable, so equal times keep save order. */
  const byAge = (accountId: string) =>
    [...responses.values()]
      .filter(entry => entry.record.accountId === accountId)
      .sort((left, right) => left.record.createdAt - right.record.createdAt);
  const enforceCap = (saved: StoredResponse, retention: ResponseRetention) => {
    if (!((totals.get(saved.accountId) ?? 0) > retention.maxBytesPerAccount)) return;
    for (const entry of byAge(saved.accountId)) {
      if (!((totals.get(saved.accountId) ?? 0) > retention.maxBytesPerAccount)) return;
      if (entry.record !== saved) remove(keyOf(entry.record.accountId, entry.record.id));
    }
  };

  return {
    async saveResponse(record, retention) {
      const stored = structuredClone(record);
      const key = keyOf(record.accountId, record.id);
      remove(key);
      const bytes = storedResponseBytes(stored);
      responses.set(key, { record: stored, bytes });
      add(record.accountId, bytes);
      enforceCap(stored, retention);
    },
    async getResponse(accountId, id, now) {
      const entry = responses.get(keyOf(accountId, id));
      return entry && entry.record.expiresAt > now ? structuredClone(entry.record) : undefined;
    },
    async deleteResponse(accountId, id) {
      return remove(keyOf(accountId, id));
    },
    async findItems(accountId, itemIds, now) {
      const wanted = new Set(itemIds);
      const found = new Map<string, StoredJSON>();
      // Oldest first: a newer response's item overwrites an older one's.
      for (const { record } of byAge(accountId)) {
        if (record.expiresAt <= now) continue;
        for (const [itemId, item] of listItems(record)) {
          if (wanted.has(itemId)) found.set(itemId, item);
        }
      }
      return new Map([...found].map(([itemId, item]) => [itemId, foundItem(item)]));
    },
    async deleteExpiredResponses(now) {
      let deleted = 0;
      for (const [key, entry] of responses) {
        if (entry.record.expiresAt > now) continue;
        remove(key);
        deleted += 1;
      }
      return deleted;
    },
  };
}
