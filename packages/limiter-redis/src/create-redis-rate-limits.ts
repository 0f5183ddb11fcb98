import type { KeyLimits } from '@signalbox/accounts';
import {
  DEFAULT_QUOTA_PERIOD_HOURS,
  DEFAULT_WINDOW_SECONDS,
  quotaRefusal,
  requestsRefusal,
  tokensNeverFit,
  tokensRefusal,
  wholeTokens,
} from '@signalbox/engine';
import type { RunScript } from './define-scripts';
import { limitKey } from './gate-keys';

/**
 * One request's check and count against its key's windows and quota, for a script to run: its
 * keys, its limits (the script's arguments after the clock) and `check`, which throws the refusal
 * a reply says, if any.
 */
export type RateAdmission = {
  keys: string[];
  args: (string | number)[];
  check(reply: unknown): void;
};

/** Request and token windows and the token quota of every key, in Redis (see `createRedisRateLimits`). */
export type RedisRateLimits = {
  admit(keyId: string, limits: KeyLimits, estimatedTokens: number): Promise<void>;
  /** What `admit` would run, for a script that admits and does more; `undefined` when the key has no window and no quota. */
  admission(keyId: string, limits: KeyLimits, estimatedTokens: number): RateAdmission | undefined;
  /** Rejects only when Redis cannot be reached; the limiter turns that into a report. */
  charge(keyId: string, limits: KeyLimits, tokens: number): Promise<void>;
};

type Clock = () => string;

/**
 * The memory limiter's windows and quota, shared through Redis: the same counters (one per distinct
 * limit and length, so a key whose limits change counts afresh), the same order of checks (quota,
 * then tokens, then requests) and the same refusals, with `retryAfterMs` the time left in the
 * shared window that refused. One script per call checks and counts, so two instances can never
 * both take a window's last room.
 */
export function createRedisRateLimits(input: { run: RunScript; keyPrefix: string; clock: Clock }): RedisRateLimits {
  const { run, keyPrefix, clock } = input;

  function counterKeys(keyId: string, limits: KeyLimits) {
    const windowSeconds = limits.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
    const hours = limits.quotaPeriodHours ?? DEFAULT_QUOTA_PERIOD_HOURS;
    return {
      windowSeconds,
      hours,
      quota: limitKey(keyPrefix, keyId, `quota:${limits.quotaTokens ?? ''}:${hours}`),
      requests: limitKey(keyPrefix, keyId, `requests:${limits.requests ?? ''}:${windowSeconds}`),
      tokens: limitKey(keyPrefix, keyId, `tokens:${limits.tokens ?? ''}:${windowSeconds}`),
    };
  }

  function admission(keyId: string, limits: KeyLimits, estimatedTokens: number): RateAdmission | undefined {
    // No window and no quota: nothing to count or refuse, so no round trip (a limit set later counts afresh anyway).
    if (limits.requests === undefined && limits.tokens === undefined && limits.quotaTokens === undefined) return undefined;
    const { windowSeconds, hours, quota, requests, tokens } = counterKeys(keyId, limits);
    const needed = wholeTokens(estimatedTokens);
    return {
      keys: [quota, requests, tokens],
      args: [optional(limits.quotaTokens), hours * 3_600_000, optional(limits.requests), optional(limits.tokens), windowSeconds * 1000, needed],
      check(reply) {
        const [outcome, used = 0, msLeft = 0] = reply as [string, number?, number?];
        switch (outcome) {
          case 'quota':
            throw quotaRefusal(limits.quotaTokens!, hours, msLeft);
          case 'never-fit':
            throw tokensNeverFit(needed, limits.tokens!, windowSeconds);
          case 'tokens':
            throw tokensRefusal({ used, needed, limit: limits.tokens!, windowSeconds, retryAfterMs: msLeft });
          case 'requests':
            throw requestsRefusal(limits.requests!, windowSeconds, msLeft);
        }
      },
    };
  }

  return {
    async admit(keyId, limits, estimatedTokens) {
      const admitting = admission(keyId, limits, estimatedTokens);
      if (admitting) admitting.check(await run('admit', admitting.keys, [clock(), ...admitting.args]));
    },
    admission,
    async charge(keyId, limits, tokens) {
      const points = wholeTokens(tokens);
      if (points === 0 || (limits.tokens === undefined && limits.quotaTokens === undefined)) return;
      const { windowSeconds, hours, quota, tokens: tokensKey } = counterKeys(keyId, limits);
      await run('charge', [quota, tokensKey], [clock(), optional(limits.quotaTokens), hours * 3_600_000, optional(limits.tokens), windowSeconds * 1000, points]);
    },
  };
}

/** A limit the key does not set travels as '' (Lua's `tonumber('')` is nil). */
function optional(limit: number | undefined): string | number {
  return limit ?? '';
}
