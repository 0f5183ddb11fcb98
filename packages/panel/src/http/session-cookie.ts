/** The panel's session cookie: one name, scoped to the panel's path. */
export const SESSION_COOKIE = 'signalbox_panel';

export type SessionCookieOptions = {
  /** The path the panel is mounted at (`/panel`): the browser sends the cookie nowhere else. */
  path: string;
  /** Set when the page was served over HTTPS. */
  secure: boolean;
};

/** A cookie's name, scope and `SameSite` rule; the session cookie's is `Strict`. */
export type CookieOptions = SessionCookieOptions & { name: string; sameSite: 'Strict' | 'Lax' };

/**
 * A `Set-Cookie` value: HttpOnly (no script reads it), `Secure` over HTTPS, expiring after `maxAgeMs`.
 * See https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Set-Cookie
 */
export function serializeCookie(value: string, maxAgeMs: number, options: CookieOptions): string {
  const parts = [
    `${options.name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${Math.floor(maxAgeMs / 1000)}`,
    'HttpOnly',
    `SameSite=${options.sameSite}`,
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * A `Set-Cookie` value for a session id: HttpOnly, `SameSite=Strict` (no other site's page makes
 * the browser send it), `Secure` over HTTPS, expiring with the session.
 */
export function serializeSessionCookie(id: string, maxAgeMs: number, options: SessionCookieOptions): string {
  return serializeCookie(id, maxAgeMs, { ...options, name: SESSION_COOKIE, sameSite: 'Strict' });
}

/** A `Set-Cookie` value that removes the session cookie. */
export function serializeClearedCookie(options: SessionCookieOptions): string {
  return serializeSessionCookie('', 0, options);
}

/** The value of cookie `name` in a `Cookie` header, if there is one. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

/** The session id from a `Cookie` header, if there is one. */
export function readSessionCookie(header: string | undefined): string | undefined {
  return readCookie(header, SESSION_COOKIE);
}
