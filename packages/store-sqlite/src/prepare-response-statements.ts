import type { DatabaseSync } from 'node:sqlite';

const RESPONSE_COLUMNS =
  'id, account_id, key_id, created_at, expires_at, previous_response_id, response, input, conversation_key';

/**
 * The statements of stored conversations. Age is `(created_at, seq)`: the order responses were
 * made in, saves within one millisecond in the order they were saved.
 */
export function prepareResponseStatements(database: DatabaseSync) {
  const prepare = (sql: string) => database.prepare(sql);
  return {
    insertResponse: prepare(
      `INSERT INTO responses (${RESPONSE_COLUMNS}, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
    ),
    insertResponseItem: prepare(
      'INSERT INTO response_items (response_seq, source, position, account_id, item_id) VALUES (?, ?, ?, ?, ?)',
    ),
    selectLiveResponse: prepare(
      `SELECT ${RESPONSE_COLUMNS} FROM responses WHERE account_id = ? AND id = ? AND expires_at > ?`,
    ),
    /** Its `response_items` rows go with it (ON DELETE CASCADE). */
    deleteResponse: prepare('DELETE FROM responses WHERE account_id = ? AND id = ?'),
    deleteResponseBySeq: prepare('DELETE FROM responses WHERE seq = ?'),
    deleteExpiredResponses: prepare('DELETE FROM responses WHERE expires_at <= ?'),
    /** Kept by triggers on `responses` (schema step 4). */
    sumAccountBytes: prepare('SELECT bytes AS total FROM response_bytes WHERE account_id = ?'),
    /** The account's responses oldest first, but for the one just saved. */
    selectEvictionCandidates: prepare(
      'SELECT seq, bytes FROM responses WHERE account_id = ? AND seq <> ? ORDER BY created_at, seq',
    ),
    /**
     * The newest unexpired copy of one item: taken out of the row's JSON by SQLite, so a large
     * response is never parsed whole to return one item. Within one response an output item wins
     * over an input item with the same id, a later position over an earlier one.
     */
    selectNewestItem: prepare(
      `SELECT CASE items.source
                WHEN 'input' THEN responses.input -> items.position -> 'item'
                ELSE responses.response -> 'output' -> items.position
              END AS item
       FROM response_items AS items JOIN responses ON responses.seq = items.response_seq
       WHERE items.account_id = ? AND items.item_id = ? AND responses.expires_at > ?
       ORDER BY responses.created_at DESC, responses.seq DESC, items.source DESC, items.position DESC
       LIMIT 1`,
    ),
  };
}
