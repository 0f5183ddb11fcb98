import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'sbx-';
const KEY_LENGTH = 40;
/** Visible part of a key: `sbx-` plus 8 characters. */
export const KEY_PREFIX_LENGTH = KEY_PREFIX.length + 8;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new API key: `sbx-` + 40 base62 characters from a CSPRNG. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBase62(KEY_LENGTH);
}

/**
 * `length` base62 characters from a CSPRNG, by rejection sampling (no modulo bias): the random part
 * of every secret the gateway issues.
 */
export function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && text.length < length) text += ALPHABET[byte % 62];
    }
  }
  return text;
}

/** The visible part of a key, for display and lookup. */
export function keyPrefix(secret: string): string {
  return secret.slice(0, KEY_PREFIX_LENGTH);
}

/** True when a string has the shape of an API key this gateway issues. */
export function looksLikeApiKey(value: string): boolean {
  return value.length === KEY_PREFIX.length + KEY_LENGTH && value.startsWith(KEY_PREFIX);
}

/**
 * The stored form of a key (and of an account's console token): HMAC-SHA256 under the server
 * secret, hex. Never reversible without the secret.
 */
export function hashApiKey(secret: string, serverSecret: string | KeyObject): string {
  return createHmac('sha256', serverSecret).update(secret).digest('hex');
}

/**
 * The server secret as the key `hashApiKey` takes, made once by a store for its lookups: an HMAC
 * keyed with it skips importing the key text on every call (about a third of the digest's time).
 */
export function apiKeyDigestKey(serverSecret: string): KeyObject {
  return createSecretKey(serverSecret, 'utf8');
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(left: string, right: string): boolean {
  const a = Buffer.from(left, 'hex');
  const b = Buffer.from(right, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
