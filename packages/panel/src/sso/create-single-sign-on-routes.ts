import { toClientError } from '@signalbox/express';
import { GatewayError } from '@signalbox/core';
import type { AdminService, ConsoleIdentity } from '@signalbox/accounts';
import { Router, type Request, type Response } from 'express';
import { cookieOptionsOf, panelBase } from '../http/panel-locals';
import { panelRequestId } from '../http/panel-request-id';
import { readCookie, serializeCookie, serializeSessionCookie, type CookieOptions } from '../http/session-cookie';
import type { LoginThrottle } from '../security/create-login-throttle';
import type { SessionStore } from '../sessions/create-session-store';
import { createOidcClient, type OidcClient } from './create-oidc-client';
import { createPendingLogins, type PendingLogin } from './create-pending-logins';
import { matchClaimRules } from './match-claim-rules';
import type { ClaimGrant, SingleSignOnOptions } from './single-sign-on-options';

/** The cookie holding a started login's id between the panel and the provider's redirect back. */
export const PENDING_LOGIN_COOKIE = 'signalbox_panel_sso';

export type SingleSignOnRoutesOptions = {
  sso: SingleSignOnOptions;
  /** Checks that the account a rule names is there before a session opens for it. */
  admin: AdminService;
  sessions: SessionStore;
  throttle: LoginThrottle;
  now: () => number;
  /** Told why a login failed or was refused (never a token or a code). */
  warn?: (fields: Record<string, unknown>, message: string) => void;
};

/**
 * `GET /sso/login` sends the browser to the provider; `GET /sso/callback` brings it back with a
 * panel session, the same one a console token opens (cookie, CSRF token, lifetime), for the
 * identity the claim mapping gives. A failure or a refusal sends the browser to the login page with
 * the error's code and request id instead, and opens no session. Discovery starts at once.
 */
export function createSingleSignOnRoutes(options: SingleSignOnRoutesOptions): Router {
  const { sso, sessions, throttle } = options;
  const client = createOidcClient(sso);
  const pending = createPendingLogins({ ttlMs: sso.pendingLoginTtlMs ?? 10 * 60_000, maxPending: sso.maxPendingLogins ?? 10_000, now: options.now });
  const issuer = new URL(sso.issuer).origin;
  client.discover().catch((error: unknown) =>
    options.warn?.({ issuer, reason: reasonOf(error) }, `The single sign-on provider is unavailable at start (its discovery document at ${issuer} could not be read); it is tried again at the next login.`),
  );
  const router = Router();
  router.get('/login', async function startSingleSignOn(request, response) {
    try {
      throttle.check(request.ip ?? '');
      const { url, pending: login } = await client.begin();
      response.setHeader('set-cookie', serializeCookie(pending.add(login), pending.ttlMs, pendingCookie(request, response)));
      response.redirect(303, url.href);
    } catch (error) {
      sendToLoginPage(request, response, error, options.warn);
    }
  });
  router.get('/callback', async function finishSingleSignOn(request, response) {
    const login = pending.take(readCookie(request.headers.cookie, PENDING_LOGIN_COOKIE));
    const cleared = serializeCookie('', 0, pendingCookie(request, response));
    try {
      const identity = await identify(request, client, login, sso, throttle);
      await options.admin.checkIdentity(identity).catch((error: unknown) => {
        if (!(error instanceof GatewayError && error.code === 'ADMIN_TOKEN_INVALID')) throw error;
        throw new GatewayError({ code: 'SSO_REFUSED', message: `The rule for ${identity.actor ?? ''} names an account this gateway does not have.` });
      });
      throttle.checkIdentity(identity);
      const opened = sessions.create(identity);
      throttle.succeed(request.ip ?? '', identity);
      response.setHeader('set-cookie', [cleared, serializeSessionCookie(opened.id, sessions.ttlMs, cookieOptionsOf(request, response))]);
      response.redirect(303, `${panelBase(response)}/models`);
    } catch (error) {
      response.setHeader('set-cookie', cleared);
      sendToLoginPage(request, response, error, options.warn);
    }
  });
  return router;
}

/** The login in progress's cookie: on the callback's path only, Lax because the provider's redirect back is a navigation from its site, which a Strict cookie would miss. */
function pendingCookie(request: Request, response: Response): CookieOptions {
  return { ...cookieOptionsOf(request, response), path: `${panelBase(response)}/api/sso`, name: PENDING_LOGIN_COOKIE, sameSite: 'Lax' };
}

/** The identity the provider's answer maps to; a failed or refused login counts against the address. */
async function identify(
  request: Request,
  client: OidcClient,
  login: PendingLogin | undefined,
  sso: SingleSignOnOptions,
  throttle: LoginThrottle,
): Promise<ConsoleIdentity> {
  const address = request.ip ?? '';
  throttle.check(address);
  try {
    if (!login) throw new GatewayError({ code: 'SSO_LOGIN_FAILED', message: 'This single sign-on login was not started in this browser, or took too long; start it again.' });
    const query = request.originalUrl.includes('?') ? request.originalUrl.slice(request.originalUrl.indexOf('?')) : '';
    const claims = await client.finish(query, login);
    const actor = `sso:${client.issuerHost}:${claims.sub}`;
    const grant = matchClaimRules(sso.rules, claims);
    if (!grant) throw new GatewayError({ code: 'SSO_REFUSED', message: `No rule of this panel gives ${actor} a role.` });
    return identityOf(grant, actor);
  } catch (error) {
    if (!(error instanceof GatewayError && error.code === 'SSO_UNAVAILABLE')) throttle.fail(address);
    throw error;
  }
}

/** A console identity like a console token's, with no token and the person as its actor. */
function identityOf(grant: ClaimGrant, actor: string): ConsoleIdentity {
  if (grant.role === 'admin') return { kind: 'admin', actor };
  return { kind: 'account', accountId: grant.accountId, role: grant.role, actor };
}

/** Back to the login page with the error's code and the request id, which the page explains; the reason is logged. */
function sendToLoginPage(request: Request, response: Response, error: unknown, warn: SingleSignOnRoutesOptions['warn']): void {
  const failure = toClientError(error);
  const requestId = panelRequestId(response);
  warn?.({ requestId, code: failure.code, reason: reasonOf(error) }, `panel single sign-on: ${failure.message}`);
  const query = new URLSearchParams({ sso_error: failure.code, request_id: requestId });
  response.redirect(303, `${panelBase(response)}/login?${query}`);
}

/** The chain of causes in the library's own words and the provider's error code (never a token or an authorization code), for the operator's log. */
function reasonOf(error: unknown): string {
  const reasons: string[] = [];
  for (let cause = error; cause instanceof Error && reasons.length < 4; cause = cause.cause) {
    // The provider's own OAuth error code (`invalid_grant`, `access_denied`), where it answered one.
    const code = (cause as { error?: unknown }).error;
    reasons.push(`${cause.name}: ${cause.message}${typeof code === 'string' ? ` (${code.slice(0, 60)})` : ''}`);
  }
  return reasons.join(' <- ').slice(0, 600);
}
