/**
 * Who is using the console (the admin API, the CLI, the panel): the operator with the admin token,
 * or one account through one of its console tokens. Every `AdminService` method takes one and
 * answers only what that identity may see: an account identity sees its own account and nothing
 * else, and another account's records answer exactly as missing ones do.
 */
export type ConsoleIdentity =
  | {
      kind: 'admin';
      /** Who acts, for the audit log: `sso:<issuer host>:<subject>` for a single sign-on login. */
      actor?: string;
      /**
       * The SHA-256 digest (hex) of the admin token it logged in with, so a session ends when that
       * token is rotated away. Absent for the operator's own tools (`ADMIN_IDENTITY`).
       */
      tokenDigest?: string;
    }
  | {
      kind: 'account';
      accountId: string;
      /**
       * The console token it logged in with (`ctok_…`), so a session can be checked against it
       * later; absent for a person who logged in through single sign-on.
       */
      tokenId?: string;
      /** What it may do in its account: `owner` (the default) changes, `viewer` only reads. */
      role?: ConsoleRole;
      /** Who acts, for the audit log: `sso:<issuer host>:<subject>` for a single sign-on login. */
      actor?: string;
    };

/** An account identity's role: `owner` manages the account's keys, `viewer` reads only. */
export type ConsoleRole = 'owner' | 'viewer';

/** What a console may be shown of an identity. */
export type PresentedIdentity =
  | { kind: 'admin'; actor?: string }
  | { kind: 'account'; accountId: string; tokenId?: string; role: ConsoleRole; actor?: string };

/** The operator's identity: what the admin token opens, and what the CLI on the data folder acts as. */
export const ADMIN_IDENTITY: ConsoleIdentity = Object.freeze({ kind: 'admin' });

/** What a console may be shown of an identity: never the admin token's digest. */
export function presentIdentity(identity: ConsoleIdentity): PresentedIdentity {
  const actor = identity.actor === undefined ? {} : { actor: identity.actor };
  if (identity.kind === 'admin') return { kind: 'admin', ...actor };
  const token = identity.tokenId === undefined ? {} : { tokenId: identity.tokenId };
  return { kind: 'account', accountId: identity.accountId, ...token, role: identity.role ?? 'owner', ...actor };
}
