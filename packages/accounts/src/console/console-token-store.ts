import type { ConsoleRole } from '../admin/console-identity';

/**
 * What the gateway knows about one account console token: a login to the admin API and the panel
 * that sees only its own account. Never the token itself.
 */
export type ConsoleTokenRecord = {
  id: string;
  accountId: string;
  name: string;
  /** The visible start of the token (`sbx-console-AbCdEfGh`), safe to show. */
  prefix: string;
  status: 'active' | 'disabled';
  /** What its identity may do with its account: `owner` manages it, `viewer` only reads it. */
  role: ConsoleRole;
  /** Expiry, unix milliseconds; absent means it never expires. */
  expiresAt?: number;
  createdAt: number;
};

/** A new token; its `role` defaults to `owner`. */
export type NewConsoleToken = { accountId: string; name: string; role?: ConsoleRole; expiresAt?: number };

export type ConsoleTokenPatch = { status?: ConsoleTokenRecord['status']; role?: ConsoleRole };

/**
 * Account console tokens, kept like API keys: only `hashApiKey(secret)` digests plus the visible
 * prefix, compared in constant time. Every `AccountStore` implements this.
 */
export interface ConsoleTokenStore {
  /** Creates a token for an existing account and returns its secret: the only time the secret exists outside the caller. */
  createConsoleToken(input: NewConsoleToken): Promise<{ secret: string; token: ConsoleTokenRecord }>;
  /** The token whose secret this is, whatever its status or expiry, or `undefined`. */
  findConsoleTokenBySecret(secret: string): Promise<ConsoleTokenRecord | undefined>;
  /** Every token, or one account's, oldest first. */
  listConsoleTokens(accountId?: string): Promise<ConsoleTokenRecord[]>;
  /** Disables (or enables again) a token or changes its role; `undefined` when there is no such token. */
  updateConsoleToken(id: string, patch: ConsoleTokenPatch): Promise<ConsoleTokenRecord | undefined>;
}
