/** What an account identity may do with its own account: an owner manages it, a viewer only reads it. */
export type ConsoleRole = 'owner' | 'viewer';

/** The roles an account's console token may carry, the default first. */
export const CONSOLE_ROLES: readonly ConsoleRole[] = ['owner', 'viewer'];

/**
 * Where a change was asked from, as the gateway trusts it: the client address (Express's
 * `request.ip`, so `trust proxy` decides), its user agent (bounded) and the request id. The HTTP
 * adapters attach it to the identity of each call, for the audit log; never kept in a session.
 */
export type RequestOrigin = { ip?: string; userAgent?: string; requestId?: string };

/**
 * Who is using the console (the admin API, the CLI, the panel): the operator with the admin token,
 * or one account through one of its console tokens. Every `AdminService` method takes one and
 * answers only what that identity may see: an account identity sees its own account and nothing
 * else, and another account's records answer exactly as missing ones do. `actor` names it in the
 * audit log: `admin-token`, `console:<token name>`, `sso:<issuer host>:<subject>`, `cli` or `config-file`.
 */
export type ConsoleIdentity =
  | {
      kind: 'admin';
      actor: string;
      /**
       * The SHA-256 digest (hex) of the admin token it logged in with, so a session ends when that
       * token is rotated away. Absent for the operator's own tools (`ADMIN_IDENTITY`).
       */
      tokenDigest?: string;
      origin?: RequestOrigin;
    }
  | {
      kind: 'account';
      accountId: string;
      /**
       * The console token it logged in with (`ctok_…`), so a session can be checked against it
       * later; absent for a person who logged in through single sign-on.
       */
      tokenId?: string;
      role: ConsoleRole;
      actor: string;
      origin?: RequestOrigin;
    };

/** What a console may be shown of an identity: never the admin token's digest, nor where it acted from. */
export type PresentedIdentity =
  | { kind: 'admin'; actor: string }
  | { kind: 'account'; accountId: string; tokenId?: string; role: ConsoleRole; actor: string };

/** The operator's identity as the example server's CLI acts on the data folder: everything, as `cli`. */
export const ADMIN_IDENTITY: ConsoleIdentity = Object.freeze({ kind: 'admin', actor: 'cli' });

/** The operator acting as `actor` (`config-file` when a configuration file seeds the store). */
export function operatorIdentity(actor: string): ConsoleIdentity {
  return { kind: 'admin', actor };
}

/** The identity acting from `origin`: what an HTTP adapter hands the service for one call. */
export function withOrigin(identity: ConsoleIdentity, origin: RequestOrigin): ConsoleIdentity {
  return { ...identity, origin };
}

/** What a console may be shown of an identity: never the admin token's digest. */
export function presentIdentity(identity: ConsoleIdentity): PresentedIdentity {
  if (identity.kind === 'admin') return { kind: 'admin', actor: identity.actor };
  const token = identity.tokenId === undefined ? {} : { tokenId: identity.tokenId };
  return { kind: 'account', accountId: identity.accountId, ...token, role: identity.role, actor: identity.actor };
}
