import { createId } from '@signalbox/core';
import { digestsEqual, hashApiKey } from '../keys/api-key-secrets';
import { consoleTokenPrefix, generateConsoleToken, looksLikeConsoleToken } from './console-token-secrets';
import type { ConsoleTokenRecord, ConsoleTokenStore } from './console-token-store';

export type MemoryConsoleTokenStoreOptions = {
  /** HMAC key for the digests (the account store's server secret). */
  serverSecret: string;
  /** Whether an account exists: a token is only made for one. */
  hasAccount(accountId: string): boolean;
};

/** Console tokens in process memory, for `createMemoryAccountStore`: digests only, copies out. */
export function createMemoryConsoleTokenStore(options: MemoryConsoleTokenStoreOptions): ConsoleTokenStore {
  const { serverSecret } = options;
  const tokens = new Map<string, { record: ConsoleTokenRecord; digest: string }>();
  const copy = (record: ConsoleTokenRecord | undefined) => (record ? structuredClone(record) : undefined);
  return {
    async createConsoleToken(input) {
      if (!options.hasAccount(input.accountId)) throw new Error(`No account '${input.accountId}'.`);
      const secret = generateConsoleToken();
      const record: ConsoleTokenRecord = {
        id: createId('ctok_'),
        accountId: input.accountId,
        name: input.name,
        prefix: consoleTokenPrefix(secret),
        status: 'active',
        role: input.role ?? 'owner',
        ...(input.expiresAt !== undefined && { expiresAt: input.expiresAt }),
        createdAt: Date.now(),
      };
      tokens.set(record.id, { record, digest: hashApiKey(secret, serverSecret) });
      return { secret, token: copy(record)! };
    },
    async findConsoleTokenBySecret(secret) {
      if (!looksLikeConsoleToken(secret)) return undefined;
      const prefix = consoleTokenPrefix(secret);
      const digest = hashApiKey(secret, serverSecret);
      for (const entry of tokens.values()) {
        if (entry.record.prefix === prefix && digestsEqual(entry.digest, digest)) return copy(entry.record);
      }
      return undefined;
    },
    async listConsoleTokens(accountId) {
      return [...tokens.values()]
        .map(entry => entry.record)
        .filter(record => accountId === undefined || record.accountId === accountId)
        .map(record => copy(record)!);
    },
    async updateConsoleToken(id, patch) {
      const entry = tokens.get(id);
      if (!entry) return undefined;
      if (patch.status !== undefined) entry.record.status = patch.status;
      if (patch.role !== undefined) entry.record.role = patch.role;
      return copy(entry.record);
    },
  };
}
