import { createHash, randomBytes } from 'node:crypto';
import type { ConsoleIdentity } from '@signalbox/accounts';
import { GatewayError } from '@signalbox/core';
import { createSessionIndex } from './create-session-index';
import { identityKey } from './identity-key';

/** A logged-in browser: who it is and the token its changes must carry. Never the console token. */
export type PanelSession = {
  identity: ConsoleIdentity;
  /** Sent back by the page in `x-csrf-token` on every change. */
  csrfToken: string;
  expiresAt: number;
};

export type SessionStoreOptions = {
  /** How long a session lives from login (no sliding renewal). Default 8 hours. */
  ttlMs?: number;
  /**
   * At most this many live sessions in all; a login beyond it is refused with 429
   * `PANEL_SESSIONS_FULL` (nobody is logged out to make room). Default 10,000.
   */
  maxSessions?: number;
  /** At most this many live sessions per console token (or admin token); a login beyond it ends that token's oldest. Default 10. */
  maxSessionsPerIdentity?: number;
  now?: () => number;
};

export type SessionStore = ReturnType<typeof createSessionStore>;

export const DEFAULT_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
export const DEFAULT_MAX_SESSIONS = 10_000;
export const DEFAULT_MAX_SESSIONS_PER_IDENTITY = 10;

/**
 * Panel sessions in process memory, keyed by the SHA-256 of their id so the map never holds a
 * usable cookie value. A restart logs everyone out, which is the safe direction. Ids and CSRF
 * tokens are 256 random bits. One token's logins can end only that token's own oldest sessions,
 * never another's: the global cap refuses new logins instead.
 */
export function createSessionStore(options: SessionStoreOptions = {}) {
  const ttlMs = options.ttlMs ?? DEFAULT_SESSION_TTL_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxPerIdentity = options.maxSessionsPerIdentity ?? DEFAULT_MAX_SESSIONS_PER_IDENTITY;
  const now = options.now ?? Date.now;
  const index = createSessionIndex();
  const digest = (id: string) => createHash('sha256').update(id).digest('base64url');
  const sweep = (keys: string[]) => {
    const time = now();
    for (const key of keys) if (index.get(key)!.expiresAt <= time) index.remove(key);
  };
  /** Makes room for one more session of `owner`: its own expired, then oldest, sessions end; a full store refuses. */
  const makeRoom = (owner: string) => {
    if (index.keys(owner).length >= maxPerIdentity) sweep(index.keys(owner));
    const own = index.keys(owner);
    const surplus = Math.max(0, own.length - maxPerIdentity + 1);
    for (const key of own.slice(0, surplus)) index.remove(key);
    if (index.size() >= maxSessions) sweep(index.keys());
    if (index.size() >= maxSessions) throw sessionsFull(soonestExpiry(index.values()) - now());
  };
  return {
    ttlMs,
    /** Opens a session for `identity`; returns the cookie value (the session id) and the session. */
    create(identity: ConsoleIdentity): { id: string; session: PanelSession } {
      makeRoom(identityKey(identity));
      const id = randomBytes(32).toString('base64url');
      const session = { identity, csrfToken: randomBytes(32).toString('base64url'), expiresAt: now() + ttlMs };
      index.add(digest(id), session);
      return { id, session };
    },
    /** The live session with this id, or undefined (an expired one is dropped). */
    get(id: string | undefined): PanelSession | undefined {
      if (!id) return undefined;
      const key = digest(id);
      const session = index.get(key);
      if (session && session.expiresAt <= now()) {
        index.remove(key);
        return undefined;
      }
      return session;
    },
    delete(id: string | undefined): void {
      if (id) index.remove(digest(id));
    },
    size: () => index.size(),
  };
}

function soonestExpiry(sessions: Iterable<PanelSession>): number {
  let soonest = Infinity;
  for (const session of sessions) soonest = Math.min(soonest, session.expiresAt);
  return soonest;
}

function sessionsFull(retryAfterMs: number): GatewayError {
  return new GatewayError({
    code: 'PANEL_SESSIONS_FULL',
    message: 'The panel has as many open sessions as it keeps; log out of one you no longer use, or try again later.',
    retryAfterMs,
  });
}
