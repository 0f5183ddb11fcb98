import { apiKeyDigestKey, generateApiKey, hashApiKey, keyPrefix, looksLikeApiKey, type AccountStore } from '@signalbox/accounts';
import { findDigestMatch, newApiKeyRowValues, toApiKeyRecord, toPatchedColumns } from '@signalbox/accounts/sql';
import { SELECT_ACCOUNT } from './account-statements';
import type { AnnouncedCache } from './create-announced-cache';
import type { StoreContext } from './store-context';

type ApiKeyMethods = Pick<AccountStore, 'createKey' | 'findKeyBySecret' | 'getKey' | 'listKeys' | 'updateKey'>;

/** In the order of `ApiKeyMutableColumns`, which both key writes bind. */
const MUTABLE_KEY_COLUMNS = 'name, status, expires_at, group_name, allowed_models, limits, disabled_by';
const KEY_COLUMNS = `id, account_id, prefix, created_at, ${MUTABLE_KEY_COLUMNS}`;
const SELECT_KEY = `SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`;

/**
 * Keys stored as HMAC digests under the server secret plus the visible prefix; the secret itself is
 * returned once by `createKey` and never written. Lookup is by prefix, then a constant-time digest
 * comparison against every candidate, through `keys` (a found key's row is kept until a key change
 * is announced; `updateKey` also empties it at once).
 */
export function createApiKeyMethods({ sql, transaction, serverSecret }: StoreContext, keys: AnnouncedCache): ApiKeyMethods {
  const digestKey = apiKeyDigestKey(serverSecret);
  return {
    async createKey(input) {
      if (!(await sql.row(SELECT_ACCOUNT, [input.accountId]))) throw new Error(`No account '${input.accountId}'.`);
      if (input.secret !== undefined && !looksLikeApiKey(input.secret)) {
        throw new Error('An adopted secret must have the API key shape.');
      }
      const secret = input.secret ?? generateApiKey();
      const row = await sql.row(
        `INSERT INTO api_keys (id, account_id, prefix, digest, created_at, ${MUTABLE_KEY_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${KEY_COLUMNS}`,
        newApiKeyRowValues(input, secret, serverSecret),
      );
      return { secret, key: toApiKeyRecord(row)! };
    },
    async findKeyBySecret(secret) {
      const digest = hashApiKey(secret, digestKey);
      const row = await keys.find(digest, async () =>
        findDigestMatch(await sql.rows(`SELECT ${KEY_COLUMNS}, digest FROM api_keys WHERE prefix = $1`, [keyPrefix(secret)]), digest),
      );
      return toApiKeyRecord(row);
    },
    async getKey(id) {
      return toApiKeyRecord(await sql.row(SELECT_KEY, [id]));
    },
    async listKeys(accountId) {
      const rows =
        accountId === undefined
          ? await sql.rows(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY seq`)
          : await sql.rows(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY seq`, [accountId]);
      return rows.map(row => toApiKeyRecord(row)!);
    },
    async updateKey(id, change) {
      // Read (locking the row), merge and write, so a concurrent patch from another instance is not lost.
      keys.clear();
      return transaction(async session => {
        const current = toApiKeyRecord(await session.row(`${SELECT_KEY} FOR UPDATE`, [id]));
        if (!current) return undefined;
        const patch = typeof change === 'function' ? change(current) : change;
        const row = await session.row(
          `UPDATE api_keys SET name = $1, status = $2, expires_at = $3, group_name = $4, allowed_models = $5, limits = $6, disabled_by = $7
           WHERE id = $8 RETURNING ${KEY_COLUMNS}`,
          [...toPatchedColumns(current, patch), id],
        );
        return toApiKeyRecord(row);
      }).finally(keys.clear);
    },
  };
}
