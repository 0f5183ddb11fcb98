import { GatewayError } from '@signalbox/core';
import type { ConsoleIdentity } from '@signalbox/accounts';
import { identityKey } from '../sessions/identity-key';
import { createWindowCounter } from './create-window-counter';

export type LoginThrottleOptions = {
  /** Failed logins one client address may make per window before it must wait. Default 10. */
  maxFailures?: number;
  /** Successful logins one client address may make per window. Default 60. */
  maxLoginsPerAddress?: number;
  /** Successful logins with one console token (or admin token) per window, from any address. Default 20. */
  maxLoginsPerIdentity?: number;
  /** The window's length. Default 5 minutes. */
  windowMs?: number;
  /** At most this many addresses (and as many tokens) are tracked; beyond it the oldest window is forgotten. Default 10,000. */
  maxAddresses?: number;
  now?: () => number;
};

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export const DEFAULT_LOGIN_FAILURES = 10;
export const DEFAULT_LOGINS_PER_ADDRESS = 60;
export const DEFAULT_LOGINS_PER_IDENTITY = 20;
export const DEFAULT_LOGIN_WINDOW_MS = 5 * 60 * 1000;
const DEFAULT_MAX_ADDRESSES = 10_000;

/**
 * Slows down guessing at the login and login floods, in fixed windows:
 * - each client address may fail `maxFailures` times, then every login from it is a 429
 *   `RATE_LIMITED` until its window ends, whether or not its token is right (so the answer says
 *   nothing about the guess; console tokens are 238 random bits, so this is for the logs and the
 *   server's load more than for the odds). A success does not reset the count;
 * - each address may log in `maxLoginsPerAddress` times, and each token `maxLoginsPerIdentity`
 *   times from anywhere, so no one can open sessions faster than people do.
 */
export function createLoginThrottle(options: LoginThrottleOptions = {}) {
  const windowMs = options.windowMs ?? DEFAULT_LOGIN_WINDOW_MS;
  const counter = (limit: number) =>
    createWindowCounter({ limit, windowMs, maxKeys: options.maxAddresses ?? DEFAULT_MAX_ADDRESSES, now: options.now ?? Date.now });
  const failures = counter(options.maxFailures ?? DEFAULT_LOGIN_FAILURES);
  const addressLogins = counter(options.maxLoginsPerAddress ?? DEFAULT_LOGINS_PER_ADDRESS);
  const identityLogins = counter(options.maxLoginsPerIdentity ?? DEFAULT_LOGINS_PER_IDENTITY);
  return {
    /** Before the token is checked: throws 429 when `address` has used up its failures or its logins in this window. */
    check(address: string): void {
      refuseWhile(failures.full(address), 'Too many failed panel logins from this address; wait before trying again.');
      refuseWhile(addressLogins.full(address), 'Too many panel logins from this address; wait before logging in again.');
    },
    /** Once the token is known good: throws 429 when its logins in this window are used up. */
    checkIdentity(identity: ConsoleIdentity): void {
      refuseWhile(identityLogins.full(identityKey(identity)), 'Too many panel logins with this console token; wait before logging in again.');
    },
    /** Counts one failed login from `address`. */
    fail(address: string): void {
      failures.add(address);
    },
    /** Counts one login (a session opened) from `address` with `identity`. */
    succeed(address: string, identity: ConsoleIdentity): void {
      addressLogins.add(address);
      identityLogins.add(identityKey(identity));
    },
  };
}

function refuseWhile(retryAfterMs: number | undefined, message: string): void {
  if (retryAfterMs !== undefined) throw new GatewayError({ code: 'RATE_LIMITED', message, retryAfterMs });
}
