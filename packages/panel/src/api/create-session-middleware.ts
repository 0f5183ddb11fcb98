import type { AdminService } from '@signalbox/accounts';
import type { Request, RequestHandler } from 'express';
import { cookieOptionsOf, openSessionOf, requestOrigin, sessionMissing, setOpenSession } from '../http/panel-locals';
import { readSessionCookie, serializeClearedCookie } from '../http/session-cookie';
import { checkCsrf } from '../security/check-csrf';
import type { SessionStore } from '../sessions/create-session-store';

/**
 * Finds the request's session from its cookie, and checks again that the token it was opened with
 * still opens the console: a console token disabled or expired, or an admin token rotated, since
 * the login ends its sessions at once (401, the cookie cleared); a role changed since applies at once.
 */
export function createSessionMiddleware(admin: AdminService, sessions: SessionStore): RequestHandler {
  return async function panelSessionMiddleware(request, response, next) {
    const id = readSessionCookie(request.headers.cookie);
    const session = sessions.get(id);
    if (!session || !id) throw sessionMissing();
    const identity = await admin.checkIdentity(session.identity).catch((error: unknown) => {
      sessions.delete(id);
      response.setHeader('set-cookie', serializeClearedCookie(cookieOptionsOf(request, response)));
      throw error;
    });
    // The token's role as it is now: a token made a viewer since the login acts as one at once.
    setOpenSession(response, { id, session: { ...session, identity } });
    next();
  };
}

/** Refuses a change (any method but GET, HEAD and OPTIONS) another site's page sent, or one without the session's CSRF token. */
export const changeCheckMiddleware: RequestHandler = function panelChangeCheck(request, response, next) {
  if (!SAFE_METHODS.has(request.method)) checkSameOrigin(request, openSessionOf(response).session.csrfToken);
  next();
};

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `checkCsrf` with the request's headers; without `sessionToken` (the login) only the origin is checked. */
export function checkSameOrigin(request: Request, sessionToken?: string): void {
  checkCsrf({
    origin: request.get('origin'),
    fetchSite: request.get('sec-fetch-site'),
    expectedOrigin: requestOrigin(request),
    sentToken: request.get('x-csrf-token'),
    ...(sessionToken !== undefined && { sessionToken }),
  });
}
