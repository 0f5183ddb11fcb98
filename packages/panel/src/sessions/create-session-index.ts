import type { PanelSession } from './create-session-store';
import { identityKey } from './identity-key';

/**
 * Live sessions by key (the digest of their id), oldest first, and each identity's keys, oldest
 * first, kept in step: so a store can end one token's oldest session without a scan of all.
 */
export function createSessionIndex() {
  const sessions = new Map<string, PanelSession>();
  const owned = new Map<string, Set<string>>();
  return {
    get: (key: string): PanelSession | undefined => sessions.get(key),
    add(key: string, session: PanelSession): void {
      const owner = identityKey(session.identity);
      sessions.set(key, session);
      owned.set(owner, (owned.get(owner) ?? new Set()).add(key));
    },
    remove(key: string): void {
      const session = sessions.get(key);
      if (!session) return;
      sessions.delete(key);
      const owner = identityKey(session.identity);
      const keys = owned.get(owner);
      keys?.delete(key);
      if (keys?.size === 0) owned.delete(owner);
    },
    /** The keys of `owner`'s sessions, or of every session, oldest first (a copy: removing while walking it is safe). */
    keys: (owner?: string): string[] => [...(owner === undefined ? sessions.keys() : (owned.get(owner) ?? []))],
    values: () => sessions.values(),
    size: (): number => sessions.size,
  };
}
