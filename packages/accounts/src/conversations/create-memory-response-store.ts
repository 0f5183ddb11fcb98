import type { ResponseRetention, ResponseStore, StoredJSON, StoredResponse } from './response-store';

/** The size a response counts against its account's cap: the UTF-8 bytes of its stored JSON. */
export function storedResponseBytes(record: StoredResponse): number {
  return Buffer.byteLength(JSON.stringify(record.inputItems)) + Buffer.byteLength(JSON.stringify(record.response));
}

/**
 * Stored conversations in process memory, for the memory account store: gone with the process.
 * Responses are kept in insertion order, so the oldest of an account is the first found.
 */
export function createMemoryResponseStore(): ResponseStore {
  const responses = new Map<string, { record: StoredResponse; bytes: number }>();
  const keyOf = (accountId: string, id: string) => `${accountId}\u0000${id}`;
  const live = (accountId: string, id: string, now: number) => {
    const entry = responses.get(keyOf(accountId, id));
    return entry && entry.record.expiresAt > now ? entry.record : undefined;
  };
  const enforceCap = (saved: StoredResponse, retention: ResponseRetention) => {
    const owned = [...responses.values()].filter(entry => entry.record.accountId === saved.accountId);
    let total = owned.reduce((sum, entry) => sum + entry.bytes, 0);
    for (const entry of owned) {
      if (total <= retention.maxBytesPerAccount) return;
      if (entry.record.id === saved.id) continue;
      responses.delete(keyOf(entry.record.accountId, entry.record.id));
      total -= entry.bytes;
    }
  };

  return {
    async saveResponse(record, retention) {
      const stored = structuredClone(record);
      const key = keyOf(record.accountId, record.id);
      responses.delete(key);
      responses.set(key, { record: stored, bytes: storedResponseBytes(stored) });
      enforceCap(stored, retention);
    },
    async getResponse(accountId, id, now) {
      const record = live(accountId, id, now);
      return record && structuredClone(record);
    },
    async deleteResponse(accountId, id) {
      return responses.delete(keyOf(accountId, id));
    },
    async findItems(accountId, itemIds, now) {
      const wanted = new Set(itemIds);
      const found = new Map<string, StoredJSON>();
      // Insertion order is age order: a newer response's item overwrites an older one's.
      for (const { record } of responses.values()) {
        if (record.accountId !== accountId || record.expiresAt <= now) continue;
        const output = Array.isArray(record.response.output) ? (record.response.output as StoredJSON[]) : [];
        const items = [...record.inputItems.map(stored => stored.item), ...output];
        for (const item of items) {
          if (typeof item.id === 'string' && wanted.has(item.id)) found.set(item.id, structuredClone(item));
        }
      }
      return found;
    },
    async deleteExpiredResponses(now) {
      let deleted = 0;
      for (const [key, entry] of responses) {
        if (entry.record.expiresAt > now) continue;
        responses.delete(key);
        deleted += 1;
      }
      return deleted;
    },
  };
}
