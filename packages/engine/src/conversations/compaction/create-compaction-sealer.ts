import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** The format of a sealed summary; a later format gets another prefix, so both can be read during a change. */
const VERSION = 'sy1';
const KEY_INFO = 'signalbox compaction summary v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals compaction summaries into the opaque `encrypted_content` of a compaction item, and opens
 * them again, for one account only.
 */
export type CompactionSealer = {
  seal(summary: string, accountId: string): string;
  /** The summary, or `undefined` when the content is not ours, is of another account, or was changed. */
  open(sealed: string, accountId: string): string | undefined;
};

/**
 * AES-256-GCM under a key derived (HKDF-SHA256) from the gateway's conversation secret, with the
 * account id as additional authenticated data: only a gateway holding the same secret can read a
 * summary back, and only for the account it was written for; any change to the content fails the
 * tag. The sealed form is `sy1.` and base64url of IV, tag and ciphertext.
 */
export function createCompactionSealer(secret: string | Uint8Array): CompactionSealer {
  const key = Buffer.from(hkdfSync('sha256', secret, 'signalbox', KEY_INFO, 32));
  return {
    seal(summary, accountId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(accountId, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(summary, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
    },
    open(sealed, accountId) {
      const [version, payload, ...rest] = sealed.split('.');
      if (version !== VERSION || payload === undefined || rest.length > 0) return undefined;
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(accountId, 'utf8'));
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
