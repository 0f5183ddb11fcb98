import { GatewayError } from '@signalbox/core';
import { createSessionStore } from './create-session-store';

describe('createSessionStore', () => {
  it('ends a session at its TTL, measured on the injected clock', () => {
    let time = 1_000;
    const store = createSessionStore({ ttlMs: 60_000, now: () => time });
    const { id, session } = store.create({ kind: 'admin', actor: 'admin-token' });
    expect(session.expiresAt).toBe(61_000);
    time = 60_999;
    expect(store.get(id)?.identity).toEqual({ kind: 'admin', actor: 'admin-token' });
    time = 61_000;
    expect(store.get(id)).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  const teamA = { kind: 'account', accountId: 'acct_a', tokenId: 'ctok_a', role: 'owner', actor: 'console:a' } as const;
  const teamB = { kind: 'account', accountId: 'acct_b', tokenId: 'ctok_b', role: 'owner', actor: 'console:b' } as const;
  const refusal = (run: () => unknown) => {
    try {
      run();
      return undefined;
    } catch (error) {
      if (GatewayError.isInstance(error)) return [error.status, error.code, error.retryAfterMs];
      throw error;
    }
  };

  it("keeps at most maxSessionsPerIdentity per token, ending that token's oldest and no one else's", () => {
    const store = createSessionStore({ maxSessionsPerIdentity: 2, now: () => 0 });
    const admin = store.create({ kind: 'admin', actor: 'admin-token', tokenDigest: 'digest-1' });
    const other = store.create(teamB);
    const [first, second, third] = [store.create(teamA), store.create(teamA), store.create(teamA)];
    expect([first, second, third].map(({ id }) => store.get(id)?.identity)).toEqual([undefined, teamA, teamA]);
    expect([store.get(admin.id)?.identity.kind, store.get(other.id)?.identity]).toEqual(['admin', teamB]);
    // Another console token of the same account counts on its own; so does another admin token.
    const laptop = store.create({ ...teamA, tokenId: 'ctok_a2' });
    const rotated = store.create({ kind: 'admin', actor: 'admin-token', tokenDigest: 'digest-2' });
    expect([store.get(second.id), store.get(laptop.id), store.get(admin.id), store.get(rotated.id)].every(Boolean)).toBe(true);
    expect(store.size()).toBe(6);
  });

  it('refuses a login past maxSessions with 429 PANEL_SESSIONS_FULL until the first session expires, logging no one out', () => {
    let time = 1_000;
    const store = createSessionStore({ maxSessions: 3, ttlMs: 60_000, now: () => time });
    const opened = [store.create(teamA)];
    time += 10_000;
    opened.push(store.create(teamA), store.create({ kind: 'admin', actor: 'admin-token' }));
    time += 5_000;
    expect(refusal(() => store.create(teamB))).toEqual([429, 'PANEL_SESSIONS_FULL', 45_000]);
    expect(refusal(() => store.create(teamA))).toEqual([429, 'PANEL_SESSIONS_FULL', 45_000]);
    expect(opened.every(({ id }) => store.get(id) !== undefined)).toBe(true);
    // Once the first expires (or anyone logs out), there is room again.
    time = 61_000;
    expect(store.create(teamB).session.identity).toEqual(teamB);
    store.delete(opened[1]!.id);
    expect(refusal(() => store.create(teamB))).toBeUndefined();
  });

  it("lets a token at its own cap log in while the panel is full, by ending that token's oldest session", () => {
    const store = createSessionStore({ maxSessions: 3, maxSessionsPerIdentity: 2, now: () => 0 });
    const [first, second] = [store.create(teamA), store.create(teamA)];
    const other = store.create(teamB);
    const third = store.create(teamA);
    expect([store.get(first.id), store.get(second.id), store.get(third.id), store.get(other.id)].map(Boolean)).toEqual([false, true, true, true]);
    expect(refusal(() => store.create({ kind: 'admin', actor: 'admin-token' }))?.slice(0, 2)).toEqual([429, 'PANEL_SESSIONS_FULL']);
  });

  it("drops a token's expired sessions before its oldest live one", () => {
    let time = 0;
    const store = createSessionStore({ maxSessionsPerIdentity: 2, ttlMs: 100, now: () => time });
    const old = store.create(teamA);
    time = 50;
    const live = store.create(teamA);
    time = 120;
    const fresh = store.create(teamA);
    expect([store.get(old.id), store.get(live.id)?.identity, store.get(fresh.id)?.identity]).toEqual([undefined, teamA, teamA]);
  });

  it('gives each session its own 256-bit id and CSRF token, and forgets a deleted one', () => {
    const store = createSessionStore();
    const one = store.create({ kind: 'admin', actor: 'admin-token' });
    const two = store.create({ kind: 'admin', actor: 'admin-token' });
    expect(one.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([one.id, two.id, one.session.csrfToken, two.session.csrfToken]).size).toBe(4);
    store.delete(one.id);
    expect([store.get(one.id), store.get(two.id) === two.session]).toEqual([undefined, true]);
  });
});
