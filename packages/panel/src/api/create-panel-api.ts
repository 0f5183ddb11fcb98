import { boundClientText, GatewayError, type SecretRecogniser } from '@signalbox/core';
import { presentIdentity, type AdminService } from '@signalbox/accounts';
import { createBodyMiddleware, mountAdminOperations } from '@signalbox/express';
import { Router } from 'express';
import { cookieOptionsOf, openSessionOf, requestOrigin } from '../http/panel-locals';
import { readSessionCookie, serializeClearedCookie } from '../http/session-cookie';
import type { LoginThrottle } from '../security/create-login-throttle';
import type { SessionStore } from '../sessions/create-session-store';
import { createSingleSignOnRoutes, type SingleSignOnRoutesOptions } from '../sso/create-single-sign-on-routes';
import { createLoginHandler } from './create-login-handler';
import { changeCheckMiddleware, checkSameOrigin, createSessionMiddleware } from './create-session-middleware';

export type PanelApiOptions = {
  admin: AdminService;
  sessions: SessionStore;
  throttle: LoginThrottle;
  /** The gateway's base URL for the snippets; default the origin the page was loaded from. */
  publicURL?: string;
  /** Replaces secrets in the client values an error quotes (`PanelOptions.secrets`). */
  secrets?: SecretRecogniser;
  /** Single sign-on through an OpenID Connect provider, beside the console token login. */
  sso?: SingleSignOnRoutesOptions['sso'];
  now?: () => number;
  warn?: SingleSignOnRoutesOptions['warn'];
};

/** The largest login body (a token, as JSON or a form). */
const LOGIN_BODY_LIMIT_BYTES = 8 * 1024;
/** The largest body of an admin operation sent from the page. */
const OPERATION_BODY_LIMIT_BYTES = 32 * 1024;

/**
 * The panel's JSON API: `POST /login`, `GET /login-methods`, single sign-on's `GET /sso/login` and
 * `GET /sso/callback` when configured, then, within a session, `POST /logout`, `GET /session` and
 * every admin operation (`ADMIN_OPERATIONS`) as the admin API has them, called with the session's
 * identity. Bodies are read as the gateway reads its own; every change is checked against CSRF.
 */
export function createPanelApi(options: PanelApiOptions): Router {
  const { admin, sessions } = options;
  const api = Router();
  api.post(
    '/login',
    function loginOriginCheck(request, _response, next) {
      checkSameOrigin(request);
      next();
    },
    createBodyMiddleware({ limitBytes: LOGIN_BODY_LIMIT_BYTES, forms: true }),
    createLoginHandler(options),
  );
  const { sso } = options;
  api.get('/login-methods', function panelLoginMethods(_request, response) {
    response.status(200).json({ token: true, sso: sso ? { providerName: sso.providerName ?? 'single sign-on' } : null });
  });
  if (sso) {
    api.use(
      '/sso',
      createSingleSignOnRoutes({ sso, admin, sessions, throttle: options.throttle, now: options.now ?? Date.now, ...(options.warn && { warn: options.warn }) }),
    );
  }
  // The page asks on every load whether it is logged in: without a session cookie the answer is
  // "no" (204), not an error a browser reports in its console; a cookie is checked as on every call.
  api.get('/session', function panelNoSession(request, response, next) {
    if (readSessionCookie(request.headers.cookie)) return next();
    response.status(204).end();
  });
  api.use(createSessionMiddleware(admin, sessions), changeCheckMiddleware);
  api.post('/logout', function panelLogout(request, response) {
    sessions.delete(openSessionOf(response).id);
    response.setHeader('set-cookie', serializeClearedCookie(cookieOptionsOf(request, response)));
    response.status(204).end();
  });
  api.get('/session', async function panelSession(request, response) {
    const { session } = openSessionOf(response);
    response.status(200).json({
      identity: presentIdentity(session.identity),
      me: await admin.me(session.identity),
      csrfToken: session.csrfToken,
      expiresAt: new Date(session.expiresAt).toISOString(),
      baseURL: options.publicURL ?? requestOrigin(request),
    });
  });
  mountAdminOperations(api, {
    admin,
    identityOf: (_request, response) => openSessionOf(response).session.identity,
    bodyLimitBytes: OPERATION_BODY_LIMIT_BYTES,
  });
  api.use(function panelApiNotFound(request) {
    // The path is the client's: secrets replaced before it is cut, so no piece of one survives the cut.
    const path = boundClientText(request.path, undefined, options.secrets);
    throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: `No panel endpoint ${boundClientText(request.method, 20)} ${path}.` });
  });
  return api;
}
