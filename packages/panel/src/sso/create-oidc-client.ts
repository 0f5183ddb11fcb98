/* eslint-disable @typescript-eslint/no-require-imports -- openid-client is a lazy `require`: a panel without single sign-on never loads it */
import { GatewayError } from '@signalbox/core';
import type * as OidcModule from 'openid-client';
import { missesRuleClaims, type Claims } from './match-claim-rules';
import type { PendingLogin } from './create-pending-logins';
import type { SingleSignOnOptions } from './single-sign-on-options';

export type OidcClient = ReturnType<typeof createOidcClient>;

const DEFAULT_SCOPES = ['openid', 'email', 'profile'];
const DEFAULT_TIMEOUT_MS = 10_000;
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The panel's relying party, on `openid-client`: discovery of the issuer (kept once it succeeds,
 * tried again at the next call after a failure, so an unreachable provider never stops the gateway),
 * the authorization URL of a login (authorization code with PKCE S256, `state` and `nonce`), and
 * the callback's code exchanged for the person's verified claims.
 */
export function createOidcClient(options: SingleSignOnOptions) {
  const oidc = loadOidc();
  const issuer = new URL(options.issuer);
  const scope = (options.scopes ?? DEFAULT_SCOPES).join(' ');
  let discovered: Promise<OidcModule.Configuration> | undefined;
  const discover = (): Promise<OidcModule.Configuration> => {
    discovered ??= oidc
      .discovery(issuer, options.clientId, undefined, oidc.ClientSecretBasic(options.clientSecret), {
        // HTTP only to a provider on this machine; anything else must be HTTPS (openid-client's rule).
        ...(issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname) && { execute: [oidc.allowInsecureRequests] }),
        timeout: Math.ceil((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000),
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw unavailable(`its discovery document at ${issuer.origin} could not be read`, error);
      });
    return discovered;
  };
  return {
    issuerHost: issuer.host,
    discover,
    /** A new login: the provider's authorization URL and what the callback must check. */
    async begin(): Promise<{ url: URL; pending: PendingLogin }> {
      const config = await discover();
      const pending = { codeVerifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectURL,
        scope,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url, pending };
    },
    /**
     * The callback's query checked against its login (state, then the code exchanged with the PKCE
     * verifier, the ID token's signature, issuer, audience and nonce) and the person's claims: the
     * ID token's, with the userinfo endpoint's under them when a rule reads a claim the token lacks.
     */
    async finish(query: string, pending: PendingLogin): Promise<Claims & { sub: string }> {
      const config = await discover();
      const current = new URL(options.redirectURL);
      current.search = query;
      const tokens = await oidc
        .authorizationCodeGrant(config, current, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        })
        .catch(refuseExchange);
      const claims = tokens.claims()!;
      if (!missesRuleClaims(options.rules, claims) || !config.serverMetadata().userinfo_endpoint) return claims;
      const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub).catch(refuseExchange);
      return { ...userInfo, ...claims };
    },
  };
}

/** openid-client (with jose and oauth4webapi, about 7 MiB resident), loaded by the first panel configured for single sign-on. */
function loadOidc(): typeof OidcModule {
  return require('openid-client') as typeof OidcModule;
}

/** A network failure or timeout is the provider being unreachable; any other failure refuses the login. */
function refuseExchange(error: unknown): never {
  if (isUnreachable(error)) throw unavailable('it did not answer', error);
  throw new GatewayError({ code: 'SSO_LOGIN_FAILED', message: 'The single sign-on login could not be completed; start it again.', cause: error });
}

function isUnreachable(error: unknown): boolean {
  if (error instanceof loadOidc().ClientError) return error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT';
  return error instanceof TypeError && !('code' in error);
}

function unavailable(why: string, cause: unknown): GatewayError {
  return new GatewayError({ code: 'SSO_UNAVAILABLE', message: `The single sign-on provider is unavailable: ${why}. Try again later, or log in with a console token.`, cause });
}
