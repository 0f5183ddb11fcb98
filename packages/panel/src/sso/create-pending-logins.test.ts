import { GatewayError } from '@signalbox/core';
import { createPendingLogins } from './create-pending-logins';

const LOGIN = { codeVerifier: 'verifier', state: 'state', nonce: 'nonce' };

describe('createPendingLogins', () => {
  let time = 0;
  const now = () => time;
  beforeEach(() => (time = 1_000));

  it('gives a started login back once, to the id it was kept under', () => {
    const pending = createPendingLogins({ ttlMs: 60_000, maxPending: 10, now });
    const id = pending.add(LOGIN);
    expect(id).toMatch(/^[\w-]{43}$/);
    expect(pending.take('another-id')).toBeUndefined();
    expect(pending.take(id)).toEqual(LOGIN);
    expect(pending.take(id)).toBeUndefined();
    expect(pending.take(undefined)).toBeUndefined();
  });

  it('forgets a login older than its lifetime', () => {
    const pending = createPendingLogins({ ttlMs: 60_000, maxPending: 10, now });
    const id = pending.add(LOGIN);
    time += 60_000;
    expect(pending.take(id)).toBeUndefined();
    expect(pending.size()).toBe(0);
  });

  it('refuses a login beyond the cap with 429 until an old one expires', () => {
    const pending = createPendingLogins({ ttlMs: 60_000, maxPending: 2, now });
    pending.add(LOGIN);
    time += 30_000;
    pending.add(LOGIN);
    const refusal = (() => {
      try {
        pending.add(LOGIN);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).code).toBe('RATE_LIMITED');
    time += 30_000;
    expect(pending.add(LOGIN)).toEqual(expect.any(String));
    expect(pending.size()).toBe(2);
  });
});
