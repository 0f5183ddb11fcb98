import type { ConsoleIdentity } from '@signalbox/accounts';

/**
 * The token an identity logged in with, as a map key: an account's console token by its id, the
 * admin token by its digest, a single sign-on person by issuer and subject. Session caps and login
 * limits count per key, so one token's logins never end or block another's.
 */
export function identityKey(identity: ConsoleIdentity): string {
  if (identity.actor?.startsWith('sso:')) return identity.actor;
  return identity.kind === 'admin' ? `admin:${identity.tokenDigest ?? ''}` : `account:${identity.accountId}:${identity.tokenId}`;
}
