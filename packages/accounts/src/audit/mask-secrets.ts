import { looksLikeConsoleToken } from '../console/console-token-secrets';
import { looksLikeApiKey } from '../keys/api-key-secrets';
import { looksLikeAdminToken } from '../admin/admin-tokens';

/** What a masked value reads as. */
export const MASKED = '[masked]';

/** Member names that hold a secret wherever they appear: a key's secret or digest, a token, a webhook's signing secret. */
const SECRET_MEMBER = /(?:secret|digest|password|token|apikey|authorization|privatekey|signingkey)$/i;

/**
 * A copy of `value` fit for the audit log: every member whose name says it holds a secret, and every
 * string shaped like one of the gateway's secrets (API key, console or admin token), replaced by
 * `[masked]`, at any depth. Counts named like secrets (`limits.tokens`) are numbers and kept.
 */
export function maskSecrets(value: unknown): unknown {
  if (typeof value === 'string') return looksLikeSecret(value) ? MASKED : value;
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, member]) => [name, typeof member === 'string' && SECRET_MEMBER.test(name) ? MASKED : maskSecrets(member)]),
  );
}

function looksLikeSecret(text: string): boolean {
  return looksLikeApiKey(text) || looksLikeConsoleToken(text) || looksLikeAdminToken(text);
}
