import type { FoundItem, ResponseStore, StoredJSON } from '@signalbox/accounts';
import { listItemPositions, toResponseColumns, toStoredResponse } from '@signalbox/accounts/sql';
import type { StoreContext } from './store-context';
import { writeResponse, type ResponseSave } from './write-response';

/**
 * Stored conversations in the `responses` and `response_items` tables. A save, its item index and
 * the cap it enforces commit in one `BEGIN IMMEDIATE` transaction, so processes sharing the file
 * never see a response without its items nor count an account's total from a half-done save. For a
 * single gateway, saves are queued and written in batches (`ResponseQueue`), and every read of an
 * account first sees its queued saves. Every result is parsed from the row's JSON: a copy by
 * construction.
 */
export function createResponseMethods(context: StoreContext): ResponseStore {
  const { statements, transaction, responseQueue } = context;
  /** Writes the account's queued saves first, so what follows reads the file as if they had been written at once. */
  const catchUp = (accountId: string) => {
    if (responseQueue?.latestOf(accountId)) responseQueue.flush();
  };
  return {
    async saveResponse(record, retention) {
      const save: ResponseSave = {
        // Its own copy of the fields a queued save still reads; the JSON is already serialized.
        record: { ...record },
        columns: toResponseColumns(record),
        positions: listItemPositions(record),
        maxBytesPerAccount: retention.maxBytesPerAccount,
      };
      if (responseQueue) responseQueue.add(save);
      else transaction(() => writeResponse(statements, save));
    },
    async getResponse(accountId, id, now) {
      const queued = responseQueue?.latestOf(accountId);
      if (queued?.record.id === id) return queuedResponse(queued, now);
      catchUp(accountId);
      return toStoredResponse(statements.selectLiveResponse.get(accountId, id, now));
    },
    async deleteResponse(accountId, id) {
      catchUp(accountId);
      return Number(statements.deleteResponse.run(accountId, id).changes) > 0;
    },
    async findItems(accountId, itemIds, now) {
      catchUp(accountId);
      const found = new Map<string, FoundItem>();
      for (const itemId of new Set(itemIds)) {
        const item = statements.selectNewestItem.get(accountId, itemId, now)?.['item'];
        if (typeof item === 'string') found.set(itemId, { item: JSON.parse(item) as StoredJSON, bytes: Buffer.byteLength(item) });
      }
      return found;
    },
    async deleteExpiredResponses(now) {
      responseQueue?.flush();
      return Number(statements.deleteExpiredResponses.run(now).changes);
    },
  };
}

/** A queued save read back as the file would return it: parsed from its serialized columns, gone once expired. */
function queuedResponse(save: ResponseSave, now: number) {
  const { record, columns } = save;
  if (record.expiresAt <= now) return undefined;
  return toStoredResponse({
    id: record.id,
    account_id: record.accountId,
    key_id: record.keyId,
    created_at: record.createdAt,
    expires_at: record.expiresAt,
    previous_response_id: record.previousResponseId ?? null,
    response: columns.response,
    input: columns.input,
    conversation_key: record.conversationKey ?? null,
  });
}
