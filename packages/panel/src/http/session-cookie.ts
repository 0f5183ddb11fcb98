/** The panel's session cookie: one name, scoped to the panel's path. */
export const SESSION_COOKIE = 'signalbox_panel';

export type SessionCookieOptions = {
  /** The path the panel is mounted at (`/panel`): the browser sends the cookie nowhere else. */
  path: string;
  /** Set when the page was served over HTTPS. */
  secure: boolean;
};

/**
 * A `Set-Cookie` value for a session id: HttpOnly (no script reads it), `SameSite=Strict` (no other
 * site's page makes the browser send it), `Secure` over HTTPS, expiring with the session.
 * See https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Set-Cookie
 */
export function serializeSessionCookie(id: string, maxAgeMs: number, options: SessionCookieOptions): string {
  const parts = [
    `${SESSION_COOKIE}=${id}`,
    `Path=${options.path}`,
    `Max-Age=${Math.floor(maxAgeMs / 1000)}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** A `Set-Cookie` value that removes the session cookie. */
export function serializeClearedCookie(options: SessionCookieOptions): string {
  return serializeSessionCookie('', 0, options);
}

/** The session id from a `Cookie` header, if there is one. */
export function readSessionCookie(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}
