import { consoleTokenPrefix, generateConsoleToken, hashApiKey, looksLikeConsoleToken, type ConsoleTokenStore } from '@signalbox/accounts';
import { CONSOLE_TOKEN_COLUMNS, consoleTokenPatchAssignments, findDigestMatch, newConsoleTokenRowValues, toConsoleTokenRecord } from '@signalbox/accounts/sql';
import { SELECT_ACCOUNT } from './account-statements';
import type { StoreContext } from './store-context';

/**
 * Account console tokens stored as HMAC digests under the server secret plus the visible prefix,
 * as API keys are: the secret is returned once by `createConsoleToken` and never written; lookup is
 * by prefix, then a constant-time digest comparison against every candidate.
 */
export function createConsoleTokenMethods({ sql, serverSecret }: StoreContext): ConsoleTokenStore {
  return {
    async createConsoleToken(input) {
      if (!(await sql.row(SELECT_ACCOUNT, [input.accountId]))) throw new Error(`No account '${input.accountId}'.`);
      const secret = generateConsoleToken();
      const row = await sql.row(
        `INSERT INTO console_tokens (id, account_id, name, prefix, digest, role, status, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8) RETURNING ${CONSOLE_TOKEN_COLUMNS}`,
        newConsoleTokenRowValues(input, secret, serverSecret),
      );
      return { secret, token: toConsoleTokenRecord(row)! };
    },
    async findConsoleTokenBySecret(secret) {
      if (!looksLikeConsoleToken(secret)) return undefined;
      const candidates = await sql.rows(
        `SELECT ${CONSOLE_TOKEN_COLUMNS}, digest FROM console_tokens WHERE prefix = $1`,
        [consoleTokenPrefix(secret)],
      );
      return toConsoleTokenRecord(findDigestMatch(candidates, hashApiKey(secret, serverSecret)));
    },
    async listConsoleTokens(accountId) {
      const rows =
        accountId === undefined
          ? await sql.rows(`SELECT ${CONSOLE_TOKEN_COLUMNS} FROM console_tokens ORDER BY seq`)
          : await sql.rows(`SELECT ${CONSOLE_TOKEN_COLUMNS} FROM console_tokens WHERE account_id = $1 ORDER BY seq`, [
              accountId,
            ]);
      return rows.map(row => toConsoleTokenRecord(row)!);
    },
    async updateConsoleToken(id, patch) {
      const { set, values } = consoleTokenPatchAssignments(patch, index => `$${index}`);
      if (set === '') return toConsoleTokenRecord(await sql.row(`SELECT ${CONSOLE_TOKEN_COLUMNS} FROM console_tokens WHERE id = $1`, [id]));
      return toConsoleTokenRecord(
        await sql.row(`UPDATE console_tokens SET ${set} WHERE id = $${values.length + 1} RETURNING ${CONSOLE_TOKEN_COLUMNS}`, [...values, id]),
      );
    },
  };
}
