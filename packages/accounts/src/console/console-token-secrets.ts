import { randomBase62 } from '../keys/api-key-secrets';

const CONSOLE_TOKEN_PREFIX = 'sbx-console-';
const CONSOLE_TOKEN_RANDOM_LENGTH = 40;
/** Visible part of an account's console token: `sbx-console-` plus 8 characters. */
export const CONSOLE_TOKEN_PREFIX_LENGTH = CONSOLE_TOKEN_PREFIX.length + 8;

/**
 * A new account console token: `sbx-console-` + 40 base62 characters from a CSPRNG. Its shape differs
 * from an API key (`sbx-` + 40) and from the admin token (`sbx-admin-` + 48 hex), so each is refused
 * by name where another is expected.
 */
export function generateConsoleToken(): string {
  return CONSOLE_TOKEN_PREFIX + randomBase62(CONSOLE_TOKEN_RANDOM_LENGTH);
}

/** True when a string has the shape of an account console token. */
export function looksLikeConsoleToken(value: string): boolean {
  return value.length === CONSOLE_TOKEN_PREFIX.length + CONSOLE_TOKEN_RANDOM_LENGTH && value.startsWith(CONSOLE_TOKEN_PREFIX);
}

/** The visible part of a console token, for display and lookup. */
export function consoleTokenPrefix(secret: string): string {
  return secret.slice(0, CONSOLE_TOKEN_PREFIX_LENGTH);
}
