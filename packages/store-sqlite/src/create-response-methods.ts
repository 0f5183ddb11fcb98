import { listItemPositions, responseRowValues, toResponseColumns, toStoredResponse, type ResponseStore, type StoredJSON } from '@switchyard/accounts';
import { evictOldestResponses } from './evict-oldest-responses';
import type { StoreContext } from './store-context';

/**
 * Stored conversations in the `responses` and `response_items` tables. A save, its item index and
 * the cap it enforces commit in one `BEGIN IMMEDIATE` transaction, so processes sharing the file
 * never see a response without its items nor count an account's total from a half-done save.
 * Every result is parsed from the row's JSON: a copy by construction.
 */
export function createResponseMethods({ statements, transaction }: StoreContext): ResponseStore {
  return {
    async saveResponse(record, retention) {
      const columns = toResponseColumns(record);
      const positions = listItemPositions(record);
      transaction(() => {
        statements.deleteResponse.run(record.accountId, record.id);
        const inserted = statements.insertResponse.get(...responseRowValues(record, columns));
        const seq = Number(inserted!['seq']);
        for (const { itemId, source, position } of positions) {
          statements.insertResponseItem.run(seq, source, position, record.accountId, itemId);
        }
        evictOldestResponses(statements, record.accountId, seq, retention.maxBytesPerAccount);
      });
    },
    async getResponse(accountId, id, now) {
      return toStoredResponse(statements.selectLiveResponse.get(accountId, id, now));
    },
    async deleteResponse(accountId, id) {
      return Number(statements.deleteResponse.run(accountId, id).changes) > 0;
    },
    async findItems(accountId, itemIds, now) {
      const found = new Map<string, StoredJSON>();
      for (const itemId of new Set(itemIds)) {
        const item = statements.selectNewestItem.get(accountId, itemId, now)?.['item'];
        if (typeof item === 'string') found.set(itemId, JSON.parse(item) as StoredJSON);
      }
      return found;
    },
    async deleteExpiredResponses(now) {
      return Number(statements.deleteExpiredResponses.run(now).changes);
    },
  };
}
