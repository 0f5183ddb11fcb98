import { gatewayErrorOf } from '@signalbox/core/testing';
import { createLoginThrottle } from './create-login-throttle';

describe('createLoginThrottle', () => {
  it('lets an address fail maxFailures times, then answers 429 with the rest of the window as Retry-After', () => {
    let clock = 1_000_000;
    const throttle = createLoginThrottle({ maxFailures: 3, windowMs: 60_000, now: () => clock });
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(() => throttle.check('10.0.0.1')).not.toThrow();
      throttle.fail('10.0.0.1');
    }
    clock += 15_000;
    const error = gatewayErrorOf(() => throttle.check('10.0.0.1'));
    expect([error.status, error.code, error.retryAfterMs]).toEqual([429, 'RATE_LIMITED', 45_000]);
    // Another address is not affected.
    expect(() => throttle.check('10.0.0.2')).not.toThrow();
    // The window ends: the address may try again.
    clock += 45_000;
    expect(() => throttle.check('10.0.0.1')).not.toThrow();
  });

  it('tracks at most maxAddresses addresses, forgetting the oldest window first', () => {
    const throttle = createLoginThrottle({ maxFailures: 1, maxAddresses: 2, now: () => 0 });
    throttle.fail('a');
    throttle.fail('b');
    throttle.fail('c');
    expect(() => throttle.check('a')).not.toThrow();
    expect(gatewayErrorOf(() => throttle.check('b')).code).toBe('RATE_LIMITED');
    expect(gatewayErrorOf(() => throttle.check('c')).code).toBe('RATE_LIMITED');
  });

  const teamA = { kind: 'account', accountId: 'acct_a', tokenId: 'ctok_a', role: 'owner', actor: 'console:a' } as const;

  it('lets one console token log in maxLoginsPerIdentity times per window from any address, then answers 429 until the window ends', () => {
    let clock = 0;
    const throttle = createLoginThrottle({ maxLoginsPerIdentity: 3, windowMs: 60_000, now: () => clock });
    for (let login = 0; login < 3; login++) {
      expect(() => throttle.checkIdentity(teamA)).not.toThrow();
      throttle.succeed(`10.0.0.${login}`, teamA);
    }
    clock += 20_000;
    const error = gatewayErrorOf(() => throttle.checkIdentity(teamA));
    expect([error.status, error.code, error.retryAfterMs]).toEqual([429, 'RATE_LIMITED', 40_000]);
    expect(error.message).toBe('Too many panel logins with this console token; wait before logging in again.');
    // Other tokens, the same account's included, and the addresses used are not affected.
    expect(() => throttle.checkIdentity({ ...teamA, tokenId: 'ctok_a2' })).not.toThrow();
    expect(() => throttle.checkIdentity({ kind: 'admin', actor: 'admin-token' })).not.toThrow();
    expect(() => throttle.check('10.0.0.0')).not.toThrow();
    clock += 40_000;
    expect(() => throttle.checkIdentity(teamA)).not.toThrow();
  });

  it('lets one address log in maxLoginsPerAddress times per window, whatever the tokens, then answers 429', () => {
    let clock = 0;
    const throttle = createLoginThrottle({ maxLoginsPerAddress: 2, windowMs: 60_000, now: () => clock });
    throttle.succeed('10.0.0.1', teamA);
    throttle.succeed('10.0.0.1', { kind: 'admin', actor: 'admin-token' });
    clock += 1_000;
    const error = gatewayErrorOf(() => throttle.check('10.0.0.1'));
    expect([error.status, error.code, error.retryAfterMs]).toEqual([429, 'RATE_LIMITED', 59_000]);
    expect(error.message).toBe('Too many panel logins from this address; wait before logging in again.');
    expect(() => throttle.check('10.0.0.2')).not.toThrow();
    expect(() => throttle.checkIdentity(teamA)).not.toThrow();
  });
});
