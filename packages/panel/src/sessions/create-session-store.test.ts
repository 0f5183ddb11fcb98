import { createSessionStore } from './create-session-store';

describe('createSessionStore', () => {
  it('ends a session at its TTL, measured on the injected clock', () => {
    let time = 1_000;
    const store = createSessionStore({ ttlMs: 60_000, now: () => time });
    const { id, session } = store.create({ kind: 'admin' });
    expect(session.expiresAt).toBe(61_000);
    time = 60_999;
    expect(store.get(id)?.identity).toEqual({ kind: 'admin' });
    time = 61_000;
    expect(store.get(id)).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  it('keeps at most maxSessions, ending the oldest first', () => {
    const store = createSessionStore({ maxSessions: 2, now: () => 0 });
    const first = store.create({ kind: 'admin' });
    const second = store.create({ kind: 'account', accountId: 'acct_1', tokenId: 'ct_1' });
    const third = store.create({ kind: 'admin' });
    expect([store.get(first.id), store.get(second.id)?.identity, store.get(third.id)?.identity]).toEqual([
      undefined,
      { kind: 'account', accountId: 'acct_1', tokenId: 'ct_1' },
      { kind: 'admin' },
    ]);
  });

  it('gives each session its own 256-bit id and CSRF token, and forgets a deleted one', () => {
    const store = createSessionStore();
    const one = store.create({ kind: 'admin' });
    const two = store.create({ kind: 'admin' });
    expect(one.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([one.id, two.id, one.session.csrfToken, two.session.csrfToken]).size).toBe(4);
    store.delete(one.id);
    expect([store.get(one.id), store.get(two.id) === two.session]).toEqual([undefined, true]);
  });
});
