import { createHash, randomBytes } from 'node:crypto';
import { GatewayError } from '@signalbox/core';

/** What the callback must see again: the PKCE verifier, `state` and `nonce` of one started login. */
export type PendingLogin = { codeVerifier: string; state: string; nonce: string };

export type PendingLoginsOptions = { ttlMs: number; maxPending: number; now: () => number };

/**
 * Logins started at the provider and not yet back, in process memory, keyed by the SHA-256 of a
 * random id the browser holds in a cookie: the callback finds its login only in the browser that
 * started it, and only once. Expired ones are dropped; a full store refuses new logins.
 */
export function createPendingLogins(options: PendingLoginsOptions) {
  const { ttlMs, maxPending, now } = options;
  const pending = new Map<string, PendingLogin & { expiresAt: number }>();
  const digest = (id: string) => createHash('sha256').update(id).digest('base64url');
  const sweep = () => {
    const time = now();
    for (const [key, login] of pending) if (login.expiresAt <= time) pending.delete(key);
  };
  return {
    ttlMs,
    /** Keeps `login`; returns the id for the browser's cookie. */
    add(login: PendingLogin): string {
      if (pending.size >= maxPending) sweep();
      if (pending.size >= maxPending) {
        throw new GatewayError({ code: 'RATE_LIMITED', message: 'Too many single sign-on logins are in progress; try again in a minute.', retryAfterMs: 60_000 });
      }
      const id = randomBytes(32).toString('base64url');
      pending.set(digest(id), { ...login, expiresAt: now() + ttlMs });
      return id;
    },
    /** The live login with this id, removed so it cannot be used twice; undefined when unknown or expired. */
    take(id: string | undefined): PendingLogin | undefined {
      if (!id) return undefined;
      const key = digest(id);
      const login = pending.get(key);
      pending.delete(key);
      if (!login || login.expiresAt <= now()) return undefined;
      return { codeVerifier: login.codeVerifier, state: login.state, nonce: login.nonce };
    },
    size: () => pending.size,
  };
}
