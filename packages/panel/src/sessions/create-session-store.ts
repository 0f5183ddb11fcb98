import { createHash, randomBytes } from 'node:crypto';
import type { ConsoleIdentity } from '@signalbox/accounts';

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
  /** At most this many live sessions; logging in beyond it ends the oldest. Default 10,000. */
  maxSessions?: number;
  now?: () => number;
};

export type SessionStore = ReturnType<typeof createSessionStore>;

export const DEFAULT_SESSION_TTL_MS = 8 * 60 * 60 * 1000;
export const DEFAULT_MAX_SESSIONS = 10_000;

/**
 * Panel sessions in process memory, keyed by the SHA-256 of their id so the map never holds a
 * usable cookie value. A restart logs everyone out, which is the safe direction. Ids and CSRF
 * tokens are 256 random bits.
 */
export function createSessionStore(options: SessionStoreOptions = {}) {
  const ttlMs = options.ttlMs ?? DEFAULT_SESSION_TTL_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, PanelSession>();
  const digest = (id: string) => createHash('sha256').update(id).digest('base64url');
  const sweep = () => {
    const time = now();
    for (const [key, session] of sessions) if (session.expiresAt <= time) sessions.delete(key);
  };
  return {
    ttlMs,
    /** Opens a session for `identity`; returns the cookie value (the session id) and the session. */
    create(identity: ConsoleIdentity): { id: string; session: PanelSession } {
      if (sessions.size >= maxSessions) sweep();
      while (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value!);
      const id = randomBytes(32).toString('base64url');
      const session = {
        identity,
        csrfToken: randomBytes(32).toString('base64url'),
        expiresAt: now() + ttlMs,
      };
      sessions.set(digest(id), session);
      return { id, session };
    },
    /** The live session with this id, or undefined (an expired one is dropped). */
    get(id: string | undefined): PanelSession | undefined {
      if (!id) return undefined;
      const key = digest(id);
      const session = sessions.get(key);
      if (session && session.expiresAt <= now()) {
        sessions.delete(key);
        return undefined;
      }
      return session;
    },
    delete(id: string | undefined): void {
      if (id) sessions.delete(digest(id));
    },
    size: () => sessions.size,
  };
}
