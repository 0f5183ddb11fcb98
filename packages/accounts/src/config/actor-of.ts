import type { ConsoleIdentity } from '../admin/console-identity';

/**
 * Who an identity is in a record of who changed what: `admin-token` (the admin token, in the admin
 * API or the panel), `cli` (the operator's own tools, acting on the store with `ADMIN_IDENTITY`),
 * `console:<token id>` (an account's console token).
 */
export function actorOf(identity: ConsoleIdentity): string {
  if (identity.kind === 'account') return `console:${identity.tokenId}`;
  return identity.tokenDigest === undefined ? 'cli' : 'admin-token';
}
