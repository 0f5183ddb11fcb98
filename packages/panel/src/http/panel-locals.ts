import { GatewayError } from '@signalbox/core';
import type { Request, Response } from 'express';
import type { PanelSession } from '../sessions/create-session-store';
import type { SessionCookieOptions } from './session-cookie';

/** A session found from the request's cookie: its id (the cookie value) and the session. */
export type OpenSession = { id: string; session: PanelSession };

/** Remembers where the panel is mounted (`/panel`), which routers below it no longer see as `baseUrl`. */
export function setPanelBase(response: Response, base: string): void {
  response.locals.panelBase = base;
}

/** Where the panel is mounted: `''` at the root. */
export function panelBase(response: Response): string {
  return (response.locals.panelBase as string | undefined) ?? '';
}

/** The cookie's scope: the panel's mount path, `Secure` when the page came over HTTPS. */
export function cookieOptionsOf(request: Request, response: Response): SessionCookieOptions {
  return { path: panelBase(response) || '/', secure: request.protocol === 'https' };
}

/** The origin the browser sees; with Express's `trust proxy` set, from `X-Forwarded-Proto` and `X-Forwarded-Host`. */
export function requestOrigin(request: Request): string {
  return `${request.protocol}://${request.host ?? ''}`;
}

export function setOpenSession(response: Response, open: OpenSession): void {
  response.locals.panelSession = open;
}

/** The request's session, once the session middleware found it; a 401 before. */
export function openSessionOf(response: Response): OpenSession {
  const open = response.locals.panelSession as OpenSession | undefined;
  if (!open) throw sessionMissing();
  return open;
}

export function sessionMissing(): GatewayError {
  return new GatewayError({ code: 'PANEL_SESSION_MISSING', message: 'Log in to the panel first (the session is missing or expired).' });
}
