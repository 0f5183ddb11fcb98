import { GatewayError } from '@signalbox/core';
import { createLoginThrottle } from './create-login-throttle';

function refusal(run: () => void): GatewayError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
}

describe('createLoginThrottle', () => {
  it('lets an address fail maxFailures times, then answers 429 with the rest of the window as Retry-After', () => {
    let clock = 1_000_000;
    const throttle = createLoginThrottle({ maxFailures: 3, windowMs: 60_000, now: () => clock });
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(refusal(() => throttle.check('10.0.0.1'))).toBeUndefined();
      throttle.fail('10.0.0.1');
    }
    clock += 15_000;
    const error = refusal(() => throttle.check('10.0.0.1'));
    expect([error?.status, error?.code, error?.retryAfterMs]).toEqual([429, 'RATE_LIMITED', 45_000]);
    // Another address is not affected.
    expect(refusal(() => throttle.check('10.0.0.2'))).toBeUndefined();
    // The window ends: the address may try again.
    clock += 45_000;
    expect(refusal(() => throttle.check('10.0.0.1'))).toBeUndefined();
  });

  it('tracks at most maxAddresses addresses, forgetting the oldest window first', () => {
    const throttle = createLoginThrottle({ maxFailures: 1, maxAddresses: 2, now: () => 0 });
    throttle.fail('a');
    throttle.fail('b');
    throttle.fail('c');
    expect(refusal(() => throttle.check('a'))).toBeUndefined();
    expect(refusal(() => throttle.check('b'))?.code).toBe('RATE_LIMITED');
    expect(refusal(() => throttle.check('c'))?.code).toBe('RATE_LIMITED');
  });

  const teamA = { kind: 'account', accountId: 'acct_a', tokenId: 'ctok_a', role: 'owner', actor: 'console:a' } as const;

  it('lets one console token log in maxLoginsPerIdentity times per window from any address, then answers 429 until the window ends', () => {
    let clock = 0;
    const throttle = createLoginThrottle({ maxLoginsPerIdentity: 3, windowMs: 60_000, now: () => clock });
    for (let login = 0; login < 3; login++) {
      expect(refusal(() => throttle.checkIdentity(teamA))).toBeUndefined();
      throttle.succeed(`10.0.0.${login}`, teamA);
    }
    clock += 20_000;
    const error = refusal(() => throttle.checkIdentity(teamA));
    expect([error?.status, error?.code, error?.retryAfterMs]).toEqual([429, 'RATE_LIMITED', 40_000]);
    expect(error?.message).toBe('Too many panel logins with this console token; wait before logging in again.');
    // Other tokens, the same account's included, and the addresses used are not affected.
    expect(refusal(() => throttle.checkIdentity({ ...teamA, tokenId: 'ctok_a2' }))).toBeUndefined();
    expect(refusal(() => throttle.checkIdentity({ kind: 'admin', actor: 'admin-token' }))).toBeUndefined();
    expect(refusal(() => throttle.check('10.0.0.0'))).toBeUndefined();
    clock += 40_000;
    expect(refusal(() => throttle.checkIdentity(teamA))).toBeUndefined();
  });

  it('lets one address log in maxLoginsPerAddress times per window, whatever the tokens, then answers 429', () => {
    let clock = 0;
    const throttle = createLoginThrottle({ maxLoginsPerAddress: 2, windowMs: 60_000, now: () => clock });
    throttle.succeed('10.0.0.1', teamA);
    throttle.succeed('10.0.0.1', { kind: 'admin', actor: 'admin-token' });
    clock += 1_000;
    const error = refusal(() => throttle.check('10.0.0.1'));
    expect([error?.status, error?.code, error?.retryAfterMs]).toEqual([429, 'RATE_LIMITED', 59_000]);
    expect(error?.message).toBe('Too many panel logins from this address; wait before logging in again.');
    expect(refusal(() => throttle.check('10.0.0.2'))).toBeUndefined();
    expect(refusal(() => throttle.checkIdentity(teamA))).toBeUndefined();
  });
});
