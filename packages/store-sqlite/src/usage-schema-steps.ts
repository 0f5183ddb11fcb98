// Schema steps of the usage ledger. `migrate-schema.ts` lists every step in order.

/**
 * The usage ledger: one row per request id (integer micro-units), and every change of a balance
 * that is not a request's charge. A page is newest first by (time, request_id): each index ends in
 * those two columns so a filtered page reads the index in order and stops after `limit` rows. The
 * account's own indexes serve an account-scoped console; key and model without an account serve
 * the admin; the time index serves the unfiltered page and the retention delete. Accounts made
 * before this step get an opening event of their current balance, so balance = events - rows holds.
 */
export const USAGE_LEDGER = `
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
  `;

/**
 * The id of the trace a request belongs to, when the gateway traces (OpenTelemetry): a row leads
 * to its trace in the tracing backend. Not indexed: it is read with its row, never searched by.
 */
export const USAGE_TRACE_ID = `
  ALTER TABLE usage ADD COLUMN trace_id TEXT;
  `;

/**
 * Cache writes by lifetime and what the prompt cache saved, per request. A row written before this
 * step counts its writes as 5-minute ones (the lifetime of a write not reported otherwise) and
 * saved nothing: its route's prices are not known here.
 */
export const USAGE_CACHE_WRITES = `
  ALTER TABLE usage ADD COLUMN cache_write_5m_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE usage ADD COLUMN cache_write_1h_tokens INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE usage ADD COLUMN cache_savings_micros INTEGER NOT NULL DEFAULT 0;
  UPDATE usage SET cache_write_5m_tokens = cache_write_tokens WHERE cache_write_tokens > 0;
  `;

/**
 * The name of the upstream credential a request used, when an upstream pools several keys: a
 * row says which key served it. Not indexed: it is read with its row, never searched by.
 */
export const USAGE_UPSTREAM_CREDENTIAL = `
  ALTER TABLE usage ADD COLUMN upstream_credential TEXT;
  `;

/**
 * The kind of upstream a request went to (`azure-openai`), NULL for a protocol's own API: a row
 * says which cloud served it. Not indexed: it is read with its row, never searched by.
 */
export const USAGE_UPSTREAM_KIND = `
  ALTER TABLE usage ADD COLUMN upstream_kind TEXT;
  `;
