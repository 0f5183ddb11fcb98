import type { DatabaseSync } from 'node:sqlite';
import type { TransactionRunner } from './create-transaction-runner';

/**
 * Schema steps in order: step `n` takes the database from `PRAGMA user_version = n` to `n + 1`.
 * Append new steps; never edit a released one. Money columns are integer micro-units.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    balance_micros INTEGER NOT NULL DEFAULT 0,
    reserved_micros INTEGER NOT NULL DEFAULT 0 CHECK (reserved_micros >= 0),
    subscription TEXT NOT NULL CHECK (subscription IN ('active', 'inactive')),
    group_name TEXT,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
    expires_at INTEGER,
    group_name TEXT,
    allowed_models TEXT,
    limits TEXT,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX api_keys_by_prefix ON api_keys (prefix);
  CREATE INDEX api_keys_by_account ON api_keys (account_id);
  CREATE TABLE reservations (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    amount_micros INTEGER NOT NULL CHECK (amount_micros >= 0),
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX reservations_by_created_at ON reservations (created_at);
  `,
  // Holds carry an expiry and the store instance that owns them. A hold written by an older build
  // gets the expiry that build gave it in effect (one hour after it was made) and no owner, so it is
  // released by its expiry alone.
  `
  ALTER TABLE reservations ADD COLUMN expires_at INTEGER;
  ALTER TABLE reservations ADD COLUMN owner_id TEXT;
  UPDATE reservations SET expires_at = created_at + 3600000 WHERE expires_at IS NULL;
  CREATE INDEX reservations_by_expires_at ON reservations (expires_at);
  CREATE INDEX reservations_by_owner_id ON reservations (owner_id);
  CREATE TABLE hold_owners (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at INTEGER NOT NULL
  ) STRICT;
  `,
  // Stored conversations. A response is unique per account (two accounts never share a row), and
  // `seq` orders saves, so among responses made in the same millisecond the later save is the newer.
  // `response_items` indexes every input and output item by the id clients reference it by; it
  // points into the row's JSON, and goes with its response when that is deleted.
  `
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
  `,
  // Each account's stored total, kept by triggers on every insert and delete of a response (expiry,
  // eviction and replacement included), so the cap reads one row instead of summing the account's
  // responses, whose size column sits after their JSON. The eviction scan reads a covering index.
  `
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
  `,
  // The usage ledger: one row per request id (integer micro-units), and every change of a balance
  // that is not a request's charge. A page is newest first by (time, request_id): each index ends in
  // those two columns so a filtered page reads the index in order and stops after `limit` rows. The
  // account's own indexes serve an account-scoped console; key and model without an account serve
  // the admin; the time index serves the unfiltered page and the retention delete. Accounts made
  // before this step get an opening event of their current balance, so balance = events - rows holds.
  `
  CREATE TABLE usage (
    request_id TEXT PRIMARY KEY,
    time INTEGER NOT NULL,
    upstream_request_id TEXT,
    account_id TEXT,
    key_id TEXT,
    key_prefix TEXT,
    model TEXT,
    upstream TEXT,
    upstream_model TEXT,
    protocol TEXT NOT NULL,
    upstream_protocol TEXT,
    stream INTEGER NOT NULL CHECK (stream IN (0, 1)),
    status INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    error_code TEXT,
    finish_reason TEXT,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cache_read_tokens INTEGER NOT NULL,
    cache_write_tokens INTEGER NOT NULL,
    reasoning_tokens INTEGER NOT NULL,
    estimated INTEGER NOT NULL CHECK (estimated IN (0, 1)),
    cost_micros INTEGER NOT NULL CHECK (cost_micros >= 0),
    uncovered_micros INTEGER NOT NULL CHECK (uncovered_micros >= 0),
    latency_ms INTEGER NOT NULL,
    time_to_first_byte_ms INTEGER,
    attempts INTEGER NOT NULL,
    warnings TEXT
  ) STRICT;
  CREATE INDEX usage_by_time ON usage (time, request_id);
  CREATE INDEX usage_by_account ON usage (account_id, time, request_id);
  CREATE INDEX usage_by_account_model ON usage (account_id, model, time, request_id);
  CREATE INDEX usage_by_account_status ON usage (account_id, status, time, request_id);
  CREATE INDEX usage_by_key ON usage (key_id, time, request_id);
  CREATE INDEX usage_by_model ON usage (model, time, request_id);
  CREATE INDEX usage_by_status ON usage (status, time, request_id);
  CREATE TABLE balance_events (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    time INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('opening', 'top-up', 'adjustment')),
    delta_micros INTEGER NOT NULL,
    balance_after_micros INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX balance_events_by_account ON balance_events (account_id, seq);
  INSERT INTO balance_events (id, account_id, time, kind, delta_micros, balance_after_micros)
    SELECT 'bev_opening_' || id, id, created_at, 'opening', balance_micros, balance_micros FROM accounts;
  `,
  // Account console tokens: logins to the admin API and the panel that see one account. Kept like
  // API keys: the HMAC digest and the visible prefix, never the token.
  `
  CREATE TABLE console_tokens (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
    expires_at INTEGER,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX console_tokens_by_prefix ON console_tokens (prefix);
  CREATE INDEX console_tokens_by_account ON console_tokens (account_id);
  `,
  // The id of the trace a request belongs to, when the gateway traces (OpenTelemetry): a row leads
  // to its trace in the tracing backend. Not indexed: it is read with its row, never searched by.
  `
  ALTER TABLE usage ADD COLUMN trace_id TEXT;
  `,
  // Who may undo a disabled key, and how far an account's own console token may raise its keys'
  // limits. A key disabled before this step has no record of who did it: it counts as disabled by
  // the operator, so only the operator enables it again.
  `
  ALTER TABLE api_keys ADD COLUMN disabled_by TEXT CHECK (disabled_by IN ('operator', 'account'));
  UPDATE api_keys SET disabled_by = 'operator' WHERE status = 'disabled';
  ALTER TABLE accounts ADD COLUMN key_limit_ceiling TEXT;
  `,
  // Cache writes by lifetime and what the prompt cache saved, per request. A row written before this
  // step counts its writes as 5-minute ones (the lifetime of a write not reported otherwise) and
  // saved nothing: its route's prices are not known here.
  `
  ALTER TABLE usage ADD COLUMN cache_write_5m_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE usage ADD COLUMN cache_write_1h_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE usage ADD COLUMN cache_savings_micros INTEGER NOT NULL DEFAULT 0;
  UPDATE usage SET cache_write_5m_tokens = cache_write_tokens WHERE cache_write_tokens > 0;
  `,
  // The name of the upstream credential a request used, when an upstream pools several keys: a
  // row says which key served it. Not indexed: it is read with its row, never searched by.
  `
  ALTER TABLE usage ADD COLUMN upstream_credential TEXT;
  `,
  // The key of the conversation a stored response belongs to (opaque, derived by the gateway), so
  // a request continuing it by previous_response_id keeps its upstream credential. Not indexed: it
  // is read with its row.
  `
  ALTER TABLE responses ADD COLUMN conversation_key TEXT;
  `,
  // The kind of upstream a request went to (`azure-openai`), NULL for a protocol's own API: a row
  // says which cloud served it. Not indexed: it is read with its row, never searched by.
  `
  ALTER TABLE usage ADD COLUMN upstream_kind TEXT;
  `,
  // Console token roles (a token made before this step stays an owner, as it was) and the audit
  // log: append-only, so a row is never updated, and deleted only by retention, which never
  // reaches a row younger than a day (the shortest retention), so a recent change cannot be erased.
  `
  ALTER TABLE console_tokens ADD COLUMN role TEXT NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'viewer'));
  CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    time INTEGER NOT NULL,
    actor TEXT NOT NULL,
    account_id TEXT,
    entity_type TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    action TEXT NOT NULL,
    before_json TEXT,
    after_json TEXT,
    ip TEXT,
    user_agent TEXT,
    request_id TEXT
  ) STRICT;
  CREATE INDEX audit_log_by_account ON audit_log (account_id, seq);
  CREATE INDEX audit_log_by_time ON audit_log (time);
  CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
  CREATE TRIGGER audit_log_kept_a_day BEFORE DELETE ON audit_log
    WHEN OLD.time > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) - 86400000
    BEGIN SELECT RAISE(ABORT, 'audit log entries are kept at least a day'); END;
  `,
  // Versions of the live configuration (routes, upstreams, prices): numbered without gaps, never
  // changed once written. The newest is MAX(version), read from the primary key's end.
  `
  CREATE TABLE config_versions (
    version INTEGER PRIMARY KEY CHECK (version > 0),
    author TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    document TEXT NOT NULL,
    diff TEXT NOT NULL,
    changes INTEGER NOT NULL CHECK (changes >= 0),
    restored_from INTEGER
  ) STRICT;
  `,
  // Budgets: spending limits per UTC day or month, an account's own (key_id '') or one key's, each
  // with the charges of the period it last counted in. `budgeted` marks an account that has one (of
  // its own or of a key), so a hold looks for budgets only there; a hold records its key, for the
  // key's budgets, and holds are summed by account.
  `
  CREATE TABLE budgets (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    key_id TEXT NOT NULL DEFAULT '',
    period TEXT NOT NULL CHECK (period IN ('day', 'month')),
    limit_micros INTEGER NOT NULL CHECK (limit_micros >= 0),
    spent_micros INTEGER NOT NULL DEFAULT 0,
    period_start INTEGER NOT NULL,
    PRIMARY KEY (account_id, key_id, period)
  ) STRICT;
  ALTER TABLE accounts ADD COLUMN budgeted INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE reservations ADD COLUMN key_id TEXT;
  CREATE INDEX reservations_by_account ON reservations (account_id, key_id);
  `,
  // The alert delivery log: one row per attempt to deliver an alert's webhook (never its secret or
  // signature), read newest first.
  `
  CREATE TABLE alert_deliveries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    alert_id TEXT NOT NULL,
    alert_type TEXT NOT NULL,
    target TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'retrying', 'failed')),
    http_status INTEGER,
    error TEXT,
    time INTEGER NOT NULL
  ) STRICT;
  `,
];

/** The schema version this build writes; a database with a higher one was made by a newer build. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the schema up to `SCHEMA_VERSION`. Runs under the write lock and re-reads the version
 * inside it, so several processes opening one new file at once migrate it exactly once.
 */
export function migrateSchema(database: DatabaseSync, transaction: TransactionRunner): void {
  transaction(() => {
    const version = readUserVersion(database);
    if (version > SCHEMA_VERSION) {
      throw new Error(
        `SQLite account store schema version ${version} is newer than this build (${SCHEMA_VERSION}).`,
      );
    }
    for (let step = version; step < SCHEMA_VERSION; step++) database.exec(MIGRATIONS[step]!);
    if (version !== SCHEMA_VERSION) database.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  });
}

function readUserVersion(database: DatabaseSync): number {
  const row = database.prepare('PRAGMA user_version').get();
  return Number(row?.['user_version'] ?? 0);
}
