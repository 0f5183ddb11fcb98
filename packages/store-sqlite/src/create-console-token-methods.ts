import type { SQLOutputValue } from 'node:sqlite';
import { createId } from '@switchyard/core';
import {
  consoleTokenPrefix,
  digestsEqual,
  generateConsoleToken,
  hashApiKey,
  looksLikeConsoleToken,
  type ConsoleTokenRecord,
  type ConsoleTokenStore,
} from '@switchyard/accounts';
import type { StoreContext } from './store-context';

const COLUMNS = 'id, account_id, name, prefix, status, expires_at, created_at';

/** One `console_tokens` row as SQLite returns it (without the digest unless selected). */
type ConsoleTokenRow = {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  status: ConsoleTokenRecord['status'];
  expires_at: number | null;
  created_at: number;
};

/**
 * Account console tokens stored as HMAC digests under the server secret plus the visible prefix,
 * as API keys are: the secret is returned once by `createConsoleToken` and never written; lookup is
 * by prefix, then a constant-time digest comparison against every candidate.
 */
export function createConsoleTokenMethods({ database, statements, serverSecret }: StoreContext): ConsoleTokenStore {
  const prepare = (sql: string) => database.prepare(sql);
  const insert = prepare(
    `INSERT INTO console_tokens (id, account_id, name, prefix, digest, status, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, 'active', ?, ?) RETURNING ${COLUMNS}`,
  );
  const selectByPrefix = prepare(`SELECT ${COLUMNS}, digest FROM console_tokens WHERE prefix = ?`);
  const selectAll = prepare(`SELECT ${COLUMNS} FROM console_tokens ORDER BY rowid`);
  const selectOfAccount = prepare(`SELECT ${COLUMNS} FROM console_tokens WHERE account_id = ? ORDER BY rowid`);
  const updateStatus = prepare(`UPDATE console_tokens SET status = ? WHERE id = ? RETURNING ${COLUMNS}`);
  return {
    async createConsoleToken(input) {
      if (!statements.selectAccount.get(input.accountId)) throw new Error(`No account '${input.accountId}'.`);
      const secret = generateConsoleToken();
      const row = insert.get(
        createId('ctok_'),
        input.accountId,
        input.name,
        consoleTokenPrefix(secret),
        hashApiKey(secret, serverSecret),
        input.expiresAt ?? null,
        Date.now(),
      );
      return { secret, token: toConsoleTokenRecord(row)! };
    },
    async findConsoleTokenBySecret(secret) {
      if (!looksLikeConsoleToken(secret)) return undefined;
      const digest = hashApiKey(secret, serverSecret);
      let found: Record<string, SQLOutputValue> | undefined;
      for (const candidate of selectByPrefix.all(consoleTokenPrefix(secret))) {
        // Compare every candidate, match or not, so timing does not depend on which one matched.
        if (digestsEqual(String(candidate['digest']), digest) && !found) found = candidate;
      }
      return toConsoleTokenRecord(found);
    },
    async listConsoleTokens(accountId) {
      const rows = accountId === undefined ? selectAll.all() : selectOfAccount.all(accountId);
      return rows.map(row => toConsoleTokenRecord(row)!);
    },
    async updateConsoleToken(id, patch) {
      return toConsoleTokenRecord(updateStatus.get(patch.status, id));
    },
  };
}

/** A fresh record from a row (never the digest); `undefined` passes through. */
function toConsoleTokenRecord(row: Record<string, SQLOutputValue> | undefined): ConsoleTokenRecord | undefined {
  if (!row) return undefined;
  const token = row as ConsoleTokenRow;
  return {
    id: token.id,
    accountId: token.account_id,
    name: token.name,
    prefix: token.prefix,
    status: token.status,
    ...(token.expires_at !== null && { expiresAt: token.expires_at }),
    createdAt: token.created_at,
  };
}
