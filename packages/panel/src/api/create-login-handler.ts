import { GatewayError } from '@signalbox/core';
import { presentIdentity, type AdminService } from '@signalbox/accounts';
import type { Request, RequestHandler, Response } from 'express';
import { cookieOptionsOf, panelBase } from '../http/panel-locals';
import { serializeSessionCookie } from '../http/session-cookie';
import type { LoginThrottle } from '../security/create-login-throttle';
import type { SessionStore } from '../sessions/create-session-store';

export type LoginHandlerOptions = { admin: AdminService; sessions: SessionStore; throttle: LoginThrottle };

/**
 * `POST /api/login` with `{ token }` (JSON, or a form post answered with a redirect to the Models
 * page): the client address's throttle first, then the token, then its own logins' limit, then a
 * session if the panel has room for one. Only an opened session counts as a login.
 */
export function createLoginHandler(options: LoginHandlerOptions): RequestHandler {
  const { admin, sessions, throttle } = options;
  return async function panelLogin(request: Request, response: Response) {
    const body = request.body as { token?: unknown } | undefined;
    const token = typeof body?.token === 'string' ? body.token.trim() : '';
    if (!token) throw new GatewayError({ code: 'ADMIN_TOKEN_MISSING', message: 'Enter a console token to log in.' });
    const address = request.ip ?? '';
    throttle.check(address);
    const identity = await admin.authenticateToken(token).catch((error: unknown) => {
      throttle.fail(address);
      throw error;
    });
    throttle.checkIdentity(identity);
    const opened = sessions.create(identity);
    throttle.succeed(address, identity);
    response.setHeader('set-cookie', serializeSessionCookie(opened.id, sessions.ttlMs, cookieOptionsOf(request, response)));
    if (request.is('application/x-www-form-urlencoded')) return void response.redirect(303, `${panelBase(response)}/models`);
    response.status(200).json({
      identity: presentIdentity(identity),
      csrfToken: opened.session.csrfToken,
      expiresAt: new Date(opened.session.expiresAt).toISOString(),
    });
  };
}
