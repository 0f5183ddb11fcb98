import { GatewayError } from '@signalbox/core';
import { looksLikeConsoleToken } from '../console/console-token-secrets';
import type { ConsoleTokenRecord } from '../console/console-token-store';
import { digestsEqual, looksLikeApiKey } from '../keys/api-key-secrets';
import type { AccountStore } from '../store/account-store';
import { digestAdminToken } from './admin-tokens';
import type { ConsoleIdentity } from './console-identity';

/** Request headers as Node's `IncomingHttpHeaders` carries them; only `authorization` is read. */
export type AdminRequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export type ConsoleAuthenticatorOptions = {
  store: AccountStore;
  /** SHA-256 digests (hex) of the admin tokens. */
  adminTokenDigests: readonly string[];
  /** The clock console token expiry is judged by. */
  now: () => number;
};

/**
 * Turns a console credential into a `ConsoleIdentity`: the admin token (compared by digest in
 * constant time) or an account's console token that is active and unexpired. Anything else is a
 * 401 `ADMIN_TOKEN_INVALID`, and an API key sent here is told that is what it was.
 */
export function createConsoleAuthenticator(options: ConsoleAuthenticatorOptions) {
  const { store, now } = options;
  const adminDigests = options.adminTokenDigests;
  const refuse = (why = ''): never => {
    throw new GatewayError({ code: 'ADMIN_TOKEN_INVALID', message: `The console token is not valid.${why}` });
  };
  const usable = (token: ConsoleTokenRecord | undefined): token is ConsoleTokenRecord =>
    token !== undefined && token.status === 'active' && (token.expiresAt === undefined || token.expiresAt > now());
  /** The identity a console token (admin or account) stands for; 401 when it opens nothing. */
  const authenticateToken = async (token: string): Promise<ConsoleIdentity> => {
    if (looksLikeConsoleToken(token)) {
      const record = await store.findConsoleTokenBySecret(token);
      if (!usable(record)) return refuse();
      return accountIdentity(record);
    }
    const digest = digestAdminToken(token);
    // Compare against every admin digest, match or not, so timing does not say which one matched.
    const matches = adminDigests.filter(candidate => digestsEqual(candidate, digest));
    if (matches.length > 0) return { kind: 'admin', actor: 'admin-token', tokenDigest: digest };
    return refuse(looksLikeApiKey(token) ? ' An API key is not a console token.' : '');
  };
  return {
    authenticateToken,
    /** Reads `Authorization: Bearer <console token>`. */
    async authenticate(headers: AdminRequestHeaders): Promise<ConsoleIdentity> {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(String(headers.authorization ?? ''));
      if (!match) {
        throw new GatewayError({ code: 'ADMIN_TOKEN_MISSING', message: 'Send the console token as `Authorization: Bearer <token>`.' });
      }
      return authenticateToken(match[1]!);
    },
    /**
     * The identity again if it still opens the console (an account's token not since disabled or
     * expired, an admin token not since rotated away, a single sign-on person's account not since
     * deleted), else 401: for sessions that outlive the login. An account's token identity comes back
     * with its token's role and name as they are now.
     */
    async checkIdentity(identity: ConsoleIdentity): Promise<ConsoleIdentity> {
      if (identity.kind === 'admin') {
        const { tokenDigest } = identity;
        if (tokenDigest !== undefined && !adminDigests.some(candidate => digestsEqual(candidate, tokenDigest))) refuse();
        return identity;
      }
      // A single sign-on person has no token to re-check; the account must still be there.
      if (identity.tokenId === undefined) return (await store.getAccount(identity.accountId)) ? identity : refuse();
      const token = (await store.listConsoleTokens(identity.accountId)).find(candidate => candidate.id === identity.tokenId);
      if (!usable(token)) return refuse();
      return accountIdentity(token);
    },
  };
}

/** The identity an account's console token opens: its account, its role, `console:<token name>` as its actor. */
function accountIdentity(token: ConsoleTokenRecord): ConsoleIdentity {
  return { kind: 'account', accountId: token.accountId, tokenId: token.id, role: token.role, actor: `console:${token.name}` };
}
