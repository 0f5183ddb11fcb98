// Schema steps of stored conversations. `migrate-schema.ts` lists every step in order.

/**
 * Stored conversations. A response is unique per account (two accounts never share a row), and
 * `seq` orders saves, so among responses made in the same millisecond the later save is the newer.
 * `response_items` indexes every input and output item by the id clients reference it by; it
 * points into the row's JSON, and goes with its response when that is deleted.
 */
export const STORED_RESPONSES = `
  CREATE TABLE responses (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    previous_response_id TEXT,
    response TEXT NOT NULL,
    input TEXT NOT NULL,
    bytes INTEGER NOT NULL CHECK (bytes >= 0),
    UNIQUE (account_id, id)
  ) STRICT;
  CREATE INDEX responses_by_expires_at ON responses (expires_at);
  CREATE INDEX responses_by_account_age ON responses (account_id, created_at);
  CREATE TABLE response_items (
    response_seq INTEGER NOT NULL REFERENCES responses (seq) ON DELETE CASCADE,
    source TEXT NOT NULL CHECK (source IN ('input', 'output')),
    position INTEGER NOT NULL CHECK (position >= 0),
    account_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    PRIMARY KEY (response_seq, source, position)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX response_items_by_item ON response_items (account_id, item_id);
  `;

/**
 * Each account's stored total, kept by triggers on every insert and delete of a response (expiry,
 * eviction and replacement included), so the cap reads one row instead of summing the account's
 * responses, whose size column sits after their JSON. The eviction scan reads a covering index.
 */
export const RESPONSE_BYTES = `
  CREATE TABLE response_bytes (
    account_id TEXT PRIMARY KEY,
    bytes INTEGER NOT NULL CHECK (bytes >= 0)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO response_bytes (account_id, bytes) SELECT account_id, SUM(bytes) FROM responses GROUP BY account_id;
  CREATE TRIGGER response_bytes_on_insert AFTER INSERT ON responses BEGIN
    INSERT INTO response_bytes (account_id, bytes) VALUES (NEW.account_id, NEW.bytes)
      ON CONFLICT (account_id) DO UPDATE SET bytes = bytes + excluded.bytes;
  END;
  CREATE TRIGGER response_bytes_on_delete AFTER DELETE ON responses BEGIN
    UPDATE response_bytes SET bytes = bytes - OLD.bytes WHERE account_id = OLD.account_id;
  END;
  DROP INDEX responses_by_account_age;
  CREATE INDEX responses_by_account_age ON responses (account_id, created_at, seq, bytes);
  `;

/**
 * The key of the conversation a stored response belongs to (opaque, derived by the gateway), so
 * a request continuing it by previous_response_id keeps its upstream credential. Not indexed: it
 * is read with its row.
 */
export const RESPONSE_CONVERSATION_KEY = `
  ALTER TABLE responses ADD COLUMN conversation_key TEXT;
  `;
