import { apiKeyDigestKey, generateApiKey, hashApiKey, keyPrefix, looksLikeApiKey, type AccountStore } from '@signalbox/accounts';
import { findDigestMatch, newApiKeyRowValues, toApiKeyRecord, toPatchedColumns } from '@signalbox/accounts/sql';
import type { StoreContext } from './store-context';

type ApiKeyMethods = Pick<
  AccountStore,
  'createKey' | 'findKeyBySecret' | 'getKey' | 'listKeys' | 'updateKey'
>;

/**
 * Keys stored as HMAC digests under the server secret plus the visible prefix; the secret itself is
 * returned once by `createKey` and never written. Lookup is by prefix, then a constant-time digest
 * comparison against every candidate; a key found is kept in the key cache under its digest, so the
 * next request with it reads no row, until a key change through this store or a commit by another
 * connection empties the cache.
 */
export function createApiKeyMethods({
  statements,
  transaction,
  serverSecret,
  keys,
}: StoreContext): ApiKeyMethods {
  const digestKey = apiKeyDigestKey(serverSecret);
  return {
    async createKey(input) {
      if (!statements.selectAccount.get(input.accountId)) throw new Error(`No account '${input.accountId}'.`);
      if (input.secret !== undefined && !looksLikeApiKey(input.secret)) {
        throw new Error('An adopted secret must have the API key shape.');
      }
      const secret = input.secret ?? generateApiKey();
      const row = statements.insertKey.get(...newApiKeyRowValues(input, secret, serverSecret));
      return { secret, key: toApiKeyRecord(row)! };
    },
    async findKeyBySecret(secret) {
      const digest = hashApiKey(secret, digestKey);
      const cached = keys.get(digest);
      if (cached) return toApiKeyRecord(cached);
      const found = findDigestMatch(statements.selectKeysByPrefix.all(keyPrefix(secret)), digest);
      if (found) keys.set(digest, found);
      return toApiKeyRecord(found);
    },
    async getKey(id) {
      return toApiKeyRecord(statements.selectKey.get(id));
    },
    async listKeys(accountId) {
      const rows =
        accountId === undefined ? statements.selectKeys.all() : statements.selectKeysOfAccount.all(accountId);
      return rows.map(row => toApiKeyRecord(row)!);
    },
    async updateKey(id, change) {
      // Read, merge and write under the write lock, so a concurrent patch from another process is not lost.
      keys.clear();
      return transaction(() => {
        const current = toApiKeyRecord(statements.selectKey.get(id));
        if (!current) return undefined;
        const patch = typeof change === 'function' ? change(current) : change;
        return toApiKeyRecord(statements.updateKey.get(...toPatchedColumns(current, patch), id));
      });
    },
  };
}
