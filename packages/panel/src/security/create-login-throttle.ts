import { GatewayError } from '@signalbox/core';

export type LoginThrottleOptions = {
  /** Failed logins one client address may make per window before it must wait. Default 10. */
  maxFailures?: number;
  /** The window's length. Default 5 minutes. */
  windowMs?: number;
  /** At most this many addresses are tracked; beyond it the oldest window is forgotten. Default 10,000. */
  maxAddresses?: number;
  now?: () => number;
};

export const DEFAULT_LOGIN_FAILURES = 10;
export const DEFAULT_LOGIN_WINDOW_MS = 5 * 60 * 1000;
const DEFAULT_MAX_ADDRESSES = 10_000;

type Window = { startedAt: number; failures: number };

/**
 * Slows down guessing at the login: each client address may fail `maxFailures` times per fixed
 * window, then every login from it is a 429 `RATE_LIMITED` with `Retry-After` until the window
 * ends, whether or not its token is right (so the answer says nothing about the guess). A success
 * does not reset the count. Console tokens are 238 random bits, so this is for the logs and the
 * server's load more than for the odds.
 */
export function createLoginThrottle(options: LoginThrottleOptions = {}) {
  const maxFailures = options.maxFailures ?? DEFAULT_LOGIN_FAILURES;
  const windowMs = options.windowMs ?? DEFAULT_LOGIN_WINDOW_MS;
  const maxAddresses = options.maxAddresses ?? DEFAULT_MAX_ADDRESSES;
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window>();
  const current = (address: string): Window | undefined => {
    const window = windows.get(address);
    if (window && now() - window.startedAt >= windowMs) {
      windows.delete(address);
      return undefined;
    }
    return window;
  };
  return {
    /** Throws 429 when `address` has used up its failures in this window. */
    check(address: string): void {
      const window = current(address);
      if (!window || window.failures < maxFailures) return;
      throw new GatewayError({
        code: 'RATE_LIMITED',
        message: 'Too many failed panel logins from this address; wait before trying again.',
        retryAfterMs: window.startedAt + windowMs - now(),
      });
    },
    /** Counts one failed login from `address`. */
    fail(address: string): void {
      const window = current(address);
      if (window) return void (window.failures += 1);
      if (windows.size >= maxAddresses) windows.delete(windows.keys().next().value!);
      windows.set(address, { startedAt: now(), failures: 1 });
    },
  };
}
