// Schema steps of accounts, keys, holds and console tokens. `migrate-schema.ts` lists every step in order.

/** Accounts, their API keys and the holds on their balances. */
export const ACCOUNTS_AND_KEYS = `
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
  `;

/**
 * Holds carry an expiry and the store instance that owns them. A hold written by an older build
 * gets the expiry that build gave it in effect (one hour after it was made) and no owner, so it is
 * released by its expiry alone.
 */
export const HOLD_EXPIRY_AND_OWNERS = `
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
  `;

/**
 * Account console tokens: logins to the admin API and the panel that see one account. Kept like
 * API keys: the HMAC digest and the visible prefix, never the token.
 */
export const CONSOLE_TOKENS = `
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
  `;

/**
 * Who may undo a disabled key, and how far an account's own console token may raise its keys'
 * limits. A key disabled before this step has no record of who did it: it counts as disabled by
 * the operator, so only the operator enables it again.
 */
export const KEY_DISABLED_BY_AND_CEILING = `
  ALTER TABLE api_keys ADD COLUMN disabled_by TEXT CHECK (disabled_by IN ('operator', 'account'));
  UPDATE api_keys SET disabled_by = 'operator' WHERE status = 'disabled';
  ALTER TABLE accounts ADD COLUMN key_limit_ceiling TEXT;
  `;
