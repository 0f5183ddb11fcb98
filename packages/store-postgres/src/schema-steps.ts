/**
 * Schema steps in order: step `n` (1-based) is recorded as version `n` in `schema_migrations`.
 * Append new steps; never edit a released one. Money and times are BIGINT (integer micro-units,
 * unix milliseconds); JSON is kept as the exact text the store wrote (`::json` reads into it keep
 * that text, where `jsonb` would reorder keys). `seq` columns give lists their insertion order.
 */
export const SCHEMA_STEPS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    name TEXT NOT NULL,
    balance_micros BIGINT NOT NULL DEFAULT 0,
    reserved_micros BIGINT NOT NULL DEFAULT 0 CHECK (reserved_micros >= 0),
    subscription TEXT NOT NULL CHECK (subscription IN ('active', 'inactive')),
    group_name TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
    expires_at BIGINT,
    group_name TEXT,
    allowed_models TEXT,
    limits TEXT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX api_keys_by_prefix ON api_keys (prefix);
  CREATE INDEX api_keys_by_account ON api_keys (account_id, seq);
  CREATE TABLE console_tokens (
    id TEXT PRIMARY KEY,
    seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    digest TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
    expires_at BIGINT,
    created_at BIGINT NOT NULL
  );
  CREATE INDEX console_tokens_by_prefix ON console_tokens (prefix);
  CREATE INDEX console_tokens_by_account ON console_tokens (account_id, seq);
  CREATE TABLE hold_owners (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );
  CREATE TABLE reservations (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    amount_micros BIGINT NOT NULL CHECK (amount_micros >= 0),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    owner_id TEXT NOT NULL
  );
  CREATE INDEX reservations_by_expires_at ON reservations (expires_at);
  CREATE INDEX reservations_by_owner_id ON reservations (owner_id);
  CREATE TABLE responses (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    previous_response_id TEXT,
    response TEXT NOT NULL,
    input TEXT NOT NULL,
    bytes BIGINT NOT NULL CHECK (bytes >= 0),
    UNIQUE (account_id, id)
  );
  CREATE INDEX responses_by_expires_at ON responses (expires_at);
  CREATE INDEX responses_by_account_age ON responses (account_id, created_at, seq) INCLUDE (bytes);
  CREATE TABLE response_items (
    response_seq BIGINT NOT NULL REFERENCES responses (seq) ON DELETE CASCADE,
    source TEXT NOT NULL CHECK (source IN ('input', 'output')),
    position INTEGER NOT NULL CHECK (position >= 0),
    account_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    PRIMARY KEY (response_seq, source, position)
  );
  CREATE INDEX response_items_by_item ON response_items (account_id, item_id);
  CREATE TABLE usage (
    request_id TEXT PRIMARY KEY,
    time BIGINT NOT NULL,
    upstream_request_id TEXT,
    account_id TEXT,
    key_id TEXT,
    key_prefix TEXT,
    model TEXT,
    upstream TEXT,
    upstream_model TEXT,
    protocol TEXT NOT NULL,
    upstream_protocol TEXT,
    stream SMALLINT NOT NULL CHECK (stream IN (0, 1)),
    status INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    error_code TEXT,
    finish_reason TEXT,
    input_tokens BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    cache_read_tokens BIGINT NOT NULL,
    cache_write_tokens BIGINT NOT NULL,
    reasoning_tokens BIGINT NOT NULL,
    estimated SMALLINT NOT NULL CHECK (estimated IN (0, 1)),
    cost_micros BIGINT NOT NULL CHECK (cost_micros >= 0),
    uncovered_micros BIGINT NOT NULL CHECK (uncovered_micros >= 0),
    latency_ms BIGINT NOT NULL,
    time_to_first_byte_ms BIGINT,
    attempts INTEGER NOT NULL,
    warnings TEXT
  );
  CREATE INDEX usage_by_time ON usage (time, request_id);
  CREATE INDEX usage_by_account ON usage (account_id, time, request_id);
  CREATE INDEX usage_by_account_model ON usage (account_id, model, time, request_id);
  CREATE INDEX usage_by_account_status ON usage (account_id, status, time, request_id);
  CREATE INDEX usage_by_key ON usage (key_id, time, request_id);
  CREATE INDEX usage_by_model ON usage (model, time, request_id);
  CREATE INDEX usage_by_status ON usage (status, time, request_id);
  CREATE TABLE balance_events (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    time BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('opening', 'top-up', 'adjustment')),
    delta_micros BIGINT NOT NULL,
    balance_after_micros BIGINT NOT NULL
  );
  CREATE INDEX balance_events_by_account ON balance_events (account_id, seq);
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
  ALTER TABLE usage ADD COLUMN cache_write_5m_tokens BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE usage ADD COLUMN cache_write_1h_tokens BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE usage ADD COLUMN cache_savings_micros BIGINT NOT NULL DEFAULT 0;
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
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    time BIGINT NOT NULL,
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
  );
  CREATE INDEX audit_log_by_account ON audit_log (account_id, seq);
  CREATE INDEX audit_log_by_time ON audit_log (time);
  CREATE OR REPLACE FUNCTION audit_log_guard() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP <> 'DELETE' THEN RAISE EXCEPTION 'the audit log is append-only'; END IF;
    IF OLD.time > (extract(epoch FROM clock_timestamp()) * 1000)::bigint - 86400000 THEN
      RAISE EXCEPTION 'audit log entries are kept at least a day';
    END IF;
    RETURN OLD;
  END $$;
  CREATE TRIGGER audit_log_guard BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_guard();
  CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_guard();
  `,
  // Versions of the live configuration (routes, upstreams, prices): numbered without gaps, never
  // changed once written. Every new version is announced on the channel instances LISTEN on, by a
  // trigger, so a version written by any client (an instance, the CLI) reaches them all.
  `
  CREATE TABLE config_versions (
    version INTEGER PRIMARY KEY CHECK (version > 0),
    author TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    document JSONB NOT NULL,
    diff JSONB NOT NULL,
    changes INTEGER NOT NULL CHECK (changes >= 0),
    restored_from INTEGER
  );
  CREATE FUNCTION announce_config_version() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('signalbox_config_versions', NEW.version::text);
    RETURN NEW;
  END $$;
  CREATE TRIGGER config_versions_announce AFTER INSERT ON config_versions
    FOR EACH ROW EXECUTE FUNCTION announce_config_version();
  `,
  // Budgets: spending limits per UTC day or month, an account's own (key_id '') or one key's, each
  // with the charges of the period it last counted in. `budgeted` marks an account that has one (of
  // its own or of a key): a hold on any other account stays one statement. A hold records its key,
  // for the key's budgets, and holds are summed by account.
  `
  CREATE TABLE budgets (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    key_id TEXT NOT NULL DEFAULT '',
    period TEXT NOT NULL CHECK (period IN ('day', 'month')),
    limit_micros BIGINT NOT NULL CHECK (limit_micros >= 0),
    spent_micros BIGINT NOT NULL DEFAULT 0,
    period_start BIGINT NOT NULL,
    PRIMARY KEY (account_id, key_id, period)
  );
  ALTER TABLE accounts ADD COLUMN budgeted BOOLEAN NOT NULL DEFAULT false;
  ALTER TABLE reservations ADD COLUMN key_id TEXT;
  CREATE INDEX reservations_by_account ON reservations (account_id, key_id);
  `,
  // The alert delivery log: one row per attempt to deliver an alert's webhook (never its secret or
  // signature), read newest first.
  `
  CREATE TABLE alert_deliveries (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    alert_id TEXT NOT NULL,
    alert_type TEXT NOT NULL,
    target TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'retrying', 'failed')),
    http_status INTEGER,
    error TEXT,
    time BIGINT NOT NULL
  );
  `,
  // Key changes announced (every instance keeps found keys until one changes), and balance leases:
  // the slice of an account's balance one instance holds for its requests, counted in the account's
  // `reserved_micros` like a hold, owned and expiring like one.
  `
  CREATE OR REPLACE FUNCTION announce_api_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('signalbox_api_keys', '');
    RETURN NULL;
  END $$;
  DROP TRIGGER IF EXISTS api_keys_announce ON api_keys;
  CREATE TRIGGER api_keys_announce AFTER UPDATE OR DELETE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION announce_api_key_change();
  CREATE TABLE IF NOT EXISTS balance_leases (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    owner_id TEXT NOT NULL,
    amount_micros BIGINT NOT NULL CHECK (amount_micros >= 0),
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, owner_id)
  );
  CREATE INDEX IF NOT EXISTS balance_leases_by_owner ON balance_leases (owner_id);
  `,
  // Changes of what decides whether an account's requests go on (its name, subscription, group or
  // ceiling, or the row gone) announced like key changes: every instance keeps accounts as requests
  // read them until one. One function announces on the channel its trigger names.
  `
  CREATE OR REPLACE FUNCTION announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify(TG_ARGV[0], ''); RETURN NULL; END $$;
  DROP TRIGGER IF EXISTS api_keys_announce ON api_keys;
  CREATE TRIGGER api_keys_announce AFTER UPDATE OR DELETE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION announce_change('signalbox_api_keys');
  DROP FUNCTION IF EXISTS announce_api_key_change();
  DROP TRIGGER IF EXISTS accounts_announce ON accounts;
  CREATE TRIGGER accounts_announce AFTER UPDATE OF name, subscription, group_name, key_limit_ceiling OR DELETE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION announce_change('signalbox_accounts');
  `,
];
