import type { AdminService } from '@signalbox/accounts';
import type { SecretRecogniser } from '@signalbox/core';
import { Router } from 'express';
import { createPanelApi } from './api/create-panel-api';
import { createPanelErrorHandler, type PanelLogger } from './http/create-panel-error-handler';
import { setPanelBase } from './http/panel-locals';
import { assignPanelRequestId } from './http/panel-request-id';
import { DEFAULT_UI_DIRECTORY, loadUiFiles, PAGE_PATHS } from './http/serve-ui';
import { createLoginThrottle, type LoginThrottleOptions } from './security/create-login-throttle';
import { PANEL_SECURITY_HEADERS } from './security/security-headers';
import { createSessionStore, type SessionStoreOptions } from './sessions/create-session-store';
import type { SingleSignOnOptions } from './sso/single-sign-on-options';

export type PanelOptions = {
  /**
   * The admin service the panel's data API calls in-process with each session's identity: an
   * account's session sees and changes what that account's console token may, the admin's all.
   */
  admin: AdminService;
  /**
   * The gateway's base URL as callers reach it, for the copy-paste snippets. Default: the origin
   * the page itself was loaded from.
   */
  publicURL?: string;
  /** Session lifetime, the cap per console token and the cap in all (`ttlMs`, `maxSessionsPerIdentity`, `maxSessions`). */
  sessions?: SessionStoreOptions;
  /**
   * Failed and successful logins per client address (Express's `request.ip`, so set `trust proxy`
   * behind a proxy) and successful logins per console token.
   */
  loginThrottle?: LoginThrottleOptions;
  /** Where the built page is. Default: this package's `dist/ui`. */
  uiDirectory?: string;
  /** Gets unexpected failures (never a token). */
  logger?: PanelLogger;
  /**
   * Replaces the secrets in what an error quotes (a path): the gateway's `engine.secrets`, which
   * knows its upstream keys too. Default: the shapes of every secret the product issues.
   */
  secrets?: SecretRecogniser;
  /**
   * Single sign-on through an OpenID Connect provider, offered on the login page beside the console
   * token: the claim mapping makes a person the admin or an owner or viewer of one account.
   */
  sso?: SingleSignOnOptions;
  /** The clock of single sign-on's logins in progress. Default `Date.now`. */
  now?: () => number;
};

/**
 * The account panel as an Express router: the page (`GET /`, `/models`, `/keys`, `/usage`,
 * `/balance`, `/login`), its assets, and its JSON API under `/api`, which answers from the admin
 * service. Logging in with a console token opens a cookie session; every API call but the login
 * needs it (and the token it was opened with must still be valid), and every change also needs the
 * session's CSRF token and a same-origin request.
 *
 * @example app.use('/panel', createPanel({ admin }))
 */
export function createPanel(options: PanelOptions): Router {
  const ui = loadUiFiles(options.uiDirectory ?? DEFAULT_UI_DIRECTORY);
  const router = Router();
  router.use(function panelHeaders(request, response, next) {
    for (const [name, value] of Object.entries(PANEL_SECURITY_HEADERS)) response.setHeader(name, value);
    response.setHeader('cache-control', 'no-store');
    setPanelBase(response, request.baseUrl);
    next();
  });
  for (const path of PAGE_PATHS) {
    router.get(path, (request, response) => void response.type('html').send(ui.page(request.baseUrl)));
  }
  router.get('/assets/:name', (request, response, next) => {
    const asset = ui.asset(String(request.params.name));
    if (!asset) return next();
    response.setHeader('cache-control', 'no-cache');
    response.type(asset.type).send(asset.body);
  });
  const api = createPanelApi({
    admin: options.admin,
    sessions: createSessionStore(options.sessions),
    throttle: createLoginThrottle(options.loginThrottle),
    ...(options.publicURL !== undefined && { publicURL: options.publicURL }),
    ...(options.secrets && { secrets: options.secrets }),
    ...(options.sso && { sso: options.sso }),
    ...(options.now && { now: options.now }),
    ...(options.logger?.warn && { warn: options.logger.warn.bind(options.logger) }),
  });
  router.use('/api', assignPanelRequestId, api);
  router.use(createPanelErrorHandler(options.logger, options.secrets));
  return router;
}
