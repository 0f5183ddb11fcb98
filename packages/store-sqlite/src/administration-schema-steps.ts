// Schema steps of what the admin API manages: roles and the audit log, config versions, budgets and alert deliveries. `migrate-schema.ts` lists every step in order.

/**
 * Console token roles (a token made before this step stays an owner, as it was) and the audit
 * log: append-only, so a row is never updated, and deleted only by retention, which never
 * reaches a row younger than a day (the shortest retention), so a recent change cannot be erased.
 */
export const ROLES_AND_AUDIT_LOG = `
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
  `;

/**
 * Versions of the live configuration (routes, upstreams, prices): numbered without gaps, never
 * changed once written. The newest is MAX(version), read from the primary key's end.
 */
export const CONFIG_VERSIONS = `
  CREATE TABLE config_versions (
    version INTEGER PRIMARY KEY CHECK (version > 0),
    author TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    document TEXT NOT NULL,
    diff TEXT NOT NULL,
    changes INTEGER NOT NULL CHECK (changes >= 0),
    restored_from INTEGER
  ) STRICT;
  `;

/**
 * Budgets: spending limits per UTC day or month, an account's own (key_id '') or one key's, each
 * with the charges of the period it last counted in. `budgeted` marks an account that has one (of
 * its own or of a key), so a hold looks for budgets only there; a hold records its key, for the
 * key's budgets, and holds are summed by account.
 */
export const BUDGETS = `
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
  `;

/**
 * The alert delivery log: one row per attempt to deliver an alert's webhook (never its secret or
 * signature), read newest first.
 */
export const ALERT_DELIVERIES = `
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
  `;
