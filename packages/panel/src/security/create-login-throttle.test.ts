import { GatewayError } from '@signalbox/core';
import { createLoginThrottle } from './create-login-throttle';

function refusal(run: () => void): GatewayError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof GatewayError) return error;
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
});
