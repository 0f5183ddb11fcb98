import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord, KeyStore } from './key-store';

const KEY_PREFIX = 'sy-';
const PREFIX_LENGTH = KEY_PREFIX.length + 8;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new API key: `sy-` + 40 base62 characters from a CSPRNG (rejection sampling, no modulo bias). */
export function generateApiKey(): string {
  let key = KEY_PREFIX;
  while (key.length < KEY_PREFIX.length + 40) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && key.length < KEY_PREFIX.length + 40) key += ALPHABET[byte % 62];
    }
  }
  return key;
}

/** The visible part of a key, for display. */
export function keyPrefix(secret: string): string {
  return secret.slice(0, PREFIX_LENGTH);
}

type StoredKey = { record: ApiKeyRecord; digest: Buffer };

/**
 * An in-memory key store for tests and single-process demos. Keys are kept only as HMAC-SHA256
 * digests under a server secret, found by their visible prefix and compared with `timingSafeEqual`.
 */
export function createMemoryKeyStore(options: { serverSecret?: string } = {}) {
  const serverSecret = options.serverSecret ?? randomBytes(32).toString('hex');
  const byPrefix = new Map<string, StoredKey[]>();
  const digestOf = (secret: string) => createHmac('sha256', serverSecret).update(secret).digest();

  const store: KeyStore & {
    add(secret: string, record: Omit<ApiKeyRecord, 'prefix' | 'id'> & { id?: string }): ApiKeyRecord;
  } = {
    add(secret, record) {
      const full: ApiKeyRecord = { id: record.id ?? `key_${byPrefix.size + 1}`, ...record, prefix: keyPrefix(secret) };
      const bucket = byPrefix.get(full.prefix) ?? [];
      bucket.push({ record: full, digest: digestOf(secret) });
      byPrefix.set(full.prefix, bucket);
      return full;
    },
    async verify(secret) {
      const digest = digestOf(secret);
      for (const candidate of byPrefix.get(keyPrefix(secret)) ?? []) {
        if (timingSafeEqual(candidate.digest, digest)) return candidate.record;
      }
      return undefined;
    },
  };
  return store;
}
