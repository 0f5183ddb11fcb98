import { GatewayError } from '@signalbox/core';
import { presentIdentity, type AdminService, type ConsoleIdentity } from '@signalbox/accounts';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { createPanelErrorHandler, type PanelLogger } from './http/send-panel-error';
import { readSessionCookie, serializeClearedCookie, serializeSessionCookie } from './http/session-cookie';
import { DEFAULT_UI_DIRECTORY, loadUiFiles, PAGE_PATHS } from './http/serve-ui';
import { streamCsv } from './http/stream-csv';
import { checkCsrf } from './security/check-csrf';
import { createLoginThrottle, type LoginThrottleOptions } from './security/create-login-throttle';
import { PANEL_SECURITY_HEADERS } from './security/security-headers';
import {
  createSessionStore,
  type PanelSession,
  type SessionStoreOptions,
} from './sessions/create-session-store';

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
  sessions?: SessionStoreOptions;
  /** Failed logins per client address (Express's `request.ip`, so set `trust proxy` behind a proxy). */
  loginThrottle?: LoginThrottleOptions;
  /** Where the built page is. Default: this package's `dist/ui`. */
  uiDirectory?: string;
  /** Gets unexpected failures (never a token). */
  logger?: PanelLogger;
};

type SessionRequest = Request & { panelSession?: { id: string; session: PanelSession } };

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
  const { admin } = options;
  const sessions = createSessionStore(options.sessions);
  const throttle = createLoginThrottle(options.loginThrottle);
  const ui = loadUiFiles(options.uiDirectory ?? DEFAULT_UI_DIRECTORY);
  const router = Router();
  // With Express's `trust proxy` set, `X-Forwarded-Proto` and `X-Forwarded-Host` name the origin the browser sees.
  const origin = (request: Request) => `${request.protocol}://${request.host ?? ''}`;
  const cookieOptions = (request: Request) => ({
    path: request.baseUrl || '/',
    secure: request.protocol === 'https',
  });

  router.use(function panelHeaders(_request, response, next) {
    for (const [name, value] of Object.entries(PANEL_SECURITY_HEADERS)) response.setHeader(name, value);
    response.setHeader('cache-control', 'no-store');
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

  const body = [express.json({ limit: '32kb' }), express.urlencoded({ extended: false, limit: '8kb' })];
  const session: RequestHandler = async function panelSession(request: SessionRequest, response, next) {
    const id = readSessionCookie(request.headers.cookie);
    const found = sessions.get(id);
    if (!found || !id)
      throw new GatewayError({
        code: 'PANEL_SESSION_MISSING',
        message: 'Log in to the panel first (the session is missing or expired).',
      });
    // A console token disabled or expired since the login ends its sessions at once.
    await admin.checkIdentity(found.identity).catch((error: unknown) => {
      sessions.delete(id);
      response.setHeader('set-cookie', serializeClearedCookie(cookieOptions(request)));
      throw error;
    });
    request.panelSession = { id, session: found };
    next();
  };
  const sameOrigin = (request: SessionRequest) =>
    checkCsrf({
      origin: request.get('origin'),
      fetchSite: request.get('sec-fetch-site'),
      expectedOrigin: origin(request),
      sentToken: request.get('x-csrf-token'),
      ...(request.panelSession && { sessionToken: request.panelSession.session.csrfToken }),
    });
  const change: RequestHandler = (request, _response, next) => {
    sameOrigin(request);
    next();
  };
  const identity = (request: SessionRequest): ConsoleIdentity => request.panelSession!.session.identity;
  const answer = (status: number, run: (request: SessionRequest) => unknown): RequestHandler =>
    async function panelApiHandler(request: SessionRequest, response: Response) {
      response.status(status).json(await run(request));
    };

  router.post('/api/login', body, async function login(request: Request, response: Response) {
    sameOrigin(request);
    const token = typeof request.body?.token === 'string' ? request.body.token.trim() : '';
    if (!token)
      throw new GatewayError({ code: 'ADMIN_TOKEN_MISSING', message: 'Enter a console token to log in.' });
    const address = request.ip ?? '';
    throttle.check(address);
    const identity = await admin.authenticateToken(token).catch((error: unknown) => {
      throttle.fail(address);
      throw error;
    });
    const opened = sessions.create(identity);
    response.setHeader(
      'set-cookie',
      serializeSessionCookie(opened.id, sessions.ttlMs, cookieOptions(request)),
    );
    if (request.is('application/x-www-form-urlencoded'))
      return void response.redirect(303, `${request.baseUrl}/models`);
    response
      .status(200)
      .json({
        identity: presentIdentity(opened.session.identity),
        csrfToken: opened.session.csrfToken,
        expiresAt: new Date(opened.session.expiresAt).toISOString(),
      });
  });
  router.post('/api/logout', session, change, function logout(request: SessionRequest, response: Response) {
    sessions.delete(request.panelSession?.id);
    response.setHeader('set-cookie', serializeClearedCookie(cookieOptions(request)));
    response.status(204).end();
  });
  router.get(
    '/api/session',
    session,
    answer(200, async request => {
      const { session: current } = request.panelSession!;
      return {
        identity: presentIdentity(current.identity),
        me: await admin.me(current.identity),
        csrfToken: current.csrfToken,
        expiresAt: new Date(current.expiresAt).toISOString(),
        baseURL: options.publicURL ?? origin(request),
      };
    }),
  );
  router.get(
    '/api/routes',
    session,
    answer(200, request => admin.listRoutes(identity(request))),
  );
  router.get(
    '/api/accounts',
    session,
    answer(200, request => admin.listAccounts(identity(request))),
  );
  router.post(
    '/api/accounts/:id/balance',
    session,
    change,
    body,
    answer(200, request => admin.adjustBalance(identity(request), String(request.params.id), request.body)),
  );
  router.get(
    '/api/accounts/:id/balance-events',
    session,
    answer(200, request =>
      admin.listBalanceEvents(identity(request), String(request.params.id), request.query),
    ),
  );
  router.get(
    '/api/keys',
    session,
    answer(200, request => admin.listKeys(identity(request), queryText(request, 'accountId'))),
  );
  router.post(
    '/api/keys',
    session,
    change,
    body,
    answer(201, request => admin.createKey(identity(request), request.body)),
  );
  router.patch(
    '/api/keys/:id',
    session,
    change,
    body,
    answer(200, request => admin.updateKey(identity(request), String(request.params.id), request.body)),
  );
  router.get(
    '/api/usage',
    session,
    answer(200, request => admin.listUsage(identity(request), request.query)),
  );
  router.get('/api/usage.csv', session, async function usageCsv(request: SessionRequest, response: Response) {
    await streamCsv(response, await admin.exportUsageCsv(identity(request), request.query), 'usage.csv');
  });
  router.get(
    '/api/usage/summary',
    session,
    answer(200, request => admin.summarizeUsage(identity(request), request.query)),
  );
  router.use('/api', function panelApiNotFound(request) {
    throw new GatewayError({
      code: 'ENDPOINT_NOT_FOUND',
      message: `No panel endpoint ${request.method.slice(0, 20)} ${request.path.slice(0, 200)}.`,
    });
  });
  router.use(createPanelErrorHandler(options.logger));
  return router;
}

function queryText(request: Request, name: string): string | undefined {
  const value = request.query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
