import { createHash, randomBytes } from 'node:crypto';

const ADMIN_PREFIX = 'sbx-admin-';

/** A console (admin) token: `sbx-admin-` + 48 hex characters. It opens the admin API, never generation. */
export function generateAdminToken(): string {
  return ADMIN_PREFIX + randomBytes(24).toString('hex');
}

/** True for anything shaped like a console token, so it can be refused as an API key with a clear word. */
export function looksLikeAdminToken(value: string): boolean {
  return value.startsWith(ADMIN_PREFIX);
}

/** The stored form of a console token (SHA-256, hex): tokens are long random strings, so no key stretching is needed. */
export function digestAdminToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
