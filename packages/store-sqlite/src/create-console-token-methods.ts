import { consoleTokenPrefix, generateConsoleToken, hashApiKey, looksLikeConsoleToken, type ConsoleTokenStore } from '@signalbox/accounts';
import { CONSOLE_TOKEN_COLUMNS, consoleTokenPatchAssignments, findDigestMatch, newConsoleTokenRowValues, toConsoleTokenRecord } from '@signalbox/accounts/sql';
import type { StoreContext } from './store-context';

/**
 * Account console tokens stored as HMAC digests under the server secret plus the visible prefix,
 * as API keys are: the secret is returned once by `createConsoleToken` and never written; lookup is
 * by prefix, then a constant-time digest comparison against every candidate.
 */
export function createConsoleTokenMethods({ database, statements, serverSecret }: StoreContext): ConsoleTokenStore {
  const insert = database.prepare(
    `INSERT INTO console_tokens (id, account_id, name, prefix, digest, role, status, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?) RETURNING ${CONSOLE_TOKEN_COLUMNS}`,
  );
  const selectByPrefix = database.prepare(`SELECT ${CONSOLE_TOKEN_COLUMNS}, digest FROM console_tokens WHERE prefix = ?`);
  const selectAll = database.prepare(`SELECT ${CONSOLE_TOKEN_COLUMNS} FROM console_tokens ORDER BY rowid`);
  const selectOfAccount = database.prepare(`SELECT ${CONSOLE_TOKEN_COLUMNS} FROM console_tokens WHERE account_id = ? ORDER BY rowid`);
  const selectOne = database.prepare(`SELECT ${CONSOLE_TOKEN_COLUMNS} FROM console_tokens WHERE id = ?`);
  return {
    async createConsoleToken(input) {
      if (!statements.selectAccount.get(input.accountId)) throw new Error(`No account '${input.accountId}'.`);
      const secret = generateConsoleToken();
      const row = insert.get(...newConsoleTokenRowValues(input, secret, serverSecret));
      return { secret, token: toConsoleTokenRecord(row)! };
    },
    async findConsoleTokenBySecret(secret) {
      if (!looksLikeConsoleToken(secret)) return undefined;
      const digest = hashApiKey(secret, serverSecret);
      return toConsoleTokenRecord(findDigestMatch(selectByPrefix.all(consoleTokenPrefix(secret)), digest));
    },
    async listConsoleTokens(accountId) {
      const rows = accountId === undefined ? selectAll.all() : selectOfAccount.all(accountId);
      return rows.map(row => toConsoleTokenRecord(row)!);
    },
    async updateConsoleToken(id, patch) {
      const { set, values } = consoleTokenPatchAssignments(patch, () => '?');
      if (set === '') return toConsoleTokenRecord(selectOne.get(id));
      const update = database.prepare(`UPDATE console_tokens SET ${set} WHERE id = ? RETURNING ${CONSOLE_TOKEN_COLUMNS}`);
      return toConsoleTokenRecord(update.get(...values, id));
    },
  };
}

