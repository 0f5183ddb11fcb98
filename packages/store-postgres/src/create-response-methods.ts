import type { FoundItem, ResponseStore, StoredJSON } from '@signalbox/accounts';
import { listItemPositions, responseRowValues, toResponseColumns, toStoredResponse } from '@signalbox/accounts/sql';
import { evictOldestResponses } from './evict-oldest-responses';
import type { StoreContext } from './store-context';

const RESPONSE_COLUMNS = 'id, account_id, key_id, created_at, expires_at, previous_response_id, response, input, conversation_key';

/**
 * The newest unexpired copy of one item, taken out of the row's JSON by PostgreSQL (`::json`
 * keeps the text as written), so a large response is never sent whole to return one item. Within
 * one response an output item wins over an input item with the same id, a later position over an
 * earlier one.
 */
const SELECT_NEWEST_ITEM = `
  SELECT CASE items.source
           WHEN 'input' THEN (responses.input::json -> items.position -> 'item')::text
           ELSE (responses.response::json -> 'output' -> items.position)::text
         END AS item
  FROM response_items AS items JOIN responses ON responses.seq = items.response_seq
  WHERE items.account_id = $1 AND items.item_id = $2 AND responses.expires_at > $3
  ORDER BY responses.created_at DESC, responses.seq DESC, items.source DESC, items.position DESC
  LIMIT 1`;

/**
 * Stored conversations in the `responses` and `response_items` tables. A save, its item index and
 * the cap it enforces commit in one transaction that first takes a transaction-level advisory lock
 * on the account, so instances saving for one account at once enforce one cap over the shared
 * total, and no reader sees a response without its items. Every result is parsed from the row's
 * JSON: a copy by construction.
 */
export function createResponseMethods({ sql, transaction }: StoreContext): ResponseStore {
  return {
    async saveResponse(record, retention) {
      const columns = toResponseColumns(record);
      const positions = listItemPositions(record);
      await transaction(async session => {
        await session.rows("SELECT pg_advisory_xact_lock(hashtextextended('responses:' || $1, 0))", [record.accountId]);
        await session.rows('DELETE FROM responses WHERE account_id = $1 AND id = $2', [record.accountId, record.id]);
        const inserted = await session.row(
          `INSERT INTO responses (${RESPONSE_COLUMNS}, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING seq`,
          responseRowValues(record, columns),
        );
        const seq = Number(inserted!['seq']);
        if (positions.length > 0) {
          await session.rows(
            `INSERT INTO response_items (response_seq, source, position, account_id, item_id)
             SELECT $1, source, position, $2, item_id FROM UNNEST($3::text[], $4::int[], $5::text[]) AS item (source, position, item_id)`,
            [
              seq,
              record.accountId,
              positions.map(item => item.source),
              positions.map(item => item.position),
              positions.map(item => item.itemId),
            ],
          );
        }
        await evictOldestResponses(session, record.accountId, seq, retention.maxBytesPerAccount);
      });
    },
    async getResponse(accountId, id, now) {
      return toStoredResponse(
        await sql.row(`SELECT ${RESPONSE_COLUMNS} FROM responses WHERE account_id = $1 AND id = $2 AND expires_at > $3`, [
          accountId,
          id,
          now,
        ]),
      );
    },
    async deleteResponse(accountId, id) {
      return (await sql.count('DELETE FROM responses WHERE account_id = $1 AND id = $2', [accountId, id])) > 0;
    },
    async findItems(accountId, itemIds, now) {
      const found = new Map<string, FoundItem>();
      for (const itemId of new Set(itemIds)) {
        const item = (await sql.row(SELECT_NEWEST_ITEM, [accountId, itemId, now]))?.['item'];
        if (typeof item === 'string') found.set(itemId, { item: JSON.parse(item) as StoredJSON, bytes: Buffer.byteLength(item) });
      }
      return found;
    },
    async deleteExpiredResponses(now) {
      return sql.count('DELETE FROM responses WHERE expires_at <= $1', [now]);
    },
  };
}
