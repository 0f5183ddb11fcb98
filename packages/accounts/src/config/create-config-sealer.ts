import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { ValidationIssue } from '@signalbox/core';
import { isSecretPath } from './config-secrets';

/** How a sealed secret starts in a stored document: the scheme's version, then base64url of IV, tag and ciphertext. */
export const SEALED_PREFIX = 'sealed:v1:';

/** Seals the secrets of config documents before they are stored, and opens them for the gateway. */
export type ConfigSealer = {
  /** Every plain secret sealed (a sealed one kept as it is): what `ConfigEditing.seal` is. */
  seal(document: Record<string, unknown>): { document: Record<string, unknown>; refused: readonly ValidationIssue[] };
  /** Every sealed secret opened; throws when one was sealed under another secret. */
  open(document: Record<string, unknown>): Record<string, unknown>;
};

/**
 * AES-256-GCM under a key derived (HKDF-SHA256) from the server secret: a stored document's secrets
 * are unreadable without it, and a changed sealed value fails to open instead of opening to
 * something else. Each value gets a fresh 96-bit IV.
 */
export function createConfigSealer(serverSecret: string): ConfigSealer {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, '', 'signalbox config secrets', 32));
  const sealValue = (value: string) => {
    if (value.startsWith(SEALED_PREFIX)) return value;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const sealed = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  };
  const openValue = (value: string) => {
    if (!value.startsWith(SEALED_PREFIX)) return value;
    const bytes = Buffer.from(value.slice(SEALED_PREFIX.length), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new Error('A sealed config secret does not open with this server secret (it was sealed under another).', { cause: error });
    }
  };
  return {
    seal: document => ({ document: mapSecrets(document, [], sealValue) as Record<string, unknown>, refused: [] }),
    open: document => mapSecrets(document, [], openValue) as Record<string, unknown>,
  };
}

function mapSecrets(value: unknown, path: (string | number)[], map: (secret: string) => string): unknown {
  if (typeof value === 'string') return isSecretPath(path) ? map(value) : value;
  if (Array.isArray(value)) return value.map((item, index) => mapSecrets(item, [...path, index], map));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapSecrets(item, [...path, key], map)]));
}
