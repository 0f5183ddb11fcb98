import { GatewayError } from '@switchyard/core';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { KeyLimits } from '@switchyard/accounts';

/** Length of a key's rate windows when its limits set none. */
export const DEFAULT_WINDOW_SECONDS = 60;

type WindowKind = 'requests' | 'tokens';

/** Requests-per-window and tokens-per-window counters per key (see `createRateWindows`). */
export type RateWindows = {
  /** Counts one request and the estimated tokens, or throws `RATE_LIMITED` having counted nothing. */
  admit(keyId: string, limits: KeyLimits, estimatedTokens: number): Promise<void>;
  /** Adds tokens learned after the fact; may push the window over its limit. Never throws. */
  charge(keyId: string, limits: KeyLimits, tokens: number): Promise<void>;
};

/**
 * Fixed windows on `rate-limiter-flexible`'s `RateLimiterMemory`: one limiter per distinct
 * (kind, points, window) configuration, made on first use, with the key ID as the limiter key. A
 * request is admitted only when its token estimate fits in what is left of the token window; a
 * refused request leaves both windows as they were. `retryAfterMs` is the window's `msBeforeNext`.
 */
export function createRateWindows(): RateWindows {
  const limiters = new Map<string, RateLimiterMemory>();

  function windowFor(kind: WindowKind, points: number, windowSeconds: number): RateLimiterMemory {
    const name = `${kind}:${points}:${windowSeconds}`;
    let limiter = limiters.get(name);
    if (!limiter) {
      limiter = new RateLimiterMemory({ keyPrefix: name, points, duration: windowSeconds });
      limiters.set(name, limiter);
    }
    return limiter;
  }

  async function admit(keyId: string, limits: KeyLimits, estimatedTokens: number): Promise<void> {
    const windowSeconds = limits.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
    const needed = wholeTokens(estimatedTokens);
    const tokenLimit = limits.tokens;
    const tokens = tokenLimit === undefined ? undefined : windowFor('tokens', tokenLimit, windowSeconds);
    if (tokens && tokenLimit !== undefined) {
      if (needed > tokenLimit) throw tokensNeverFit(needed, tokenLimit, windowSeconds);
      const current = await tokens.get(keyId);
      const used = current && current.msBeforeNext > 0 ? current.consumedPoints : 0;
      if (current && (used >= tokenLimit || used + needed > tokenLimit)) {
        throw tokensRefusal({ used, needed, limit: tokenLimit, windowSeconds, retryAfterMs: current.msBeforeNext });
      }
    }
    const requestLimit = limits.requests;
    const requests = requestLimit === undefined ? undefined : windowFor('requests', requestLimit, windowSeconds);
    if (requests && requestLimit !== undefined) {
      // A refused request stays counted: its window is already full, so the count changes no reset time.
      const counted = await consumeOrRefusal(requests, keyId, 1);
      if (counted.consumedPoints > requestLimit) throw requestsRefusal(requestLimit, windowSeconds, counted.msBeforeNext);
    }
    if (tokens && tokenLimit !== undefined) {
      const counted = await consumeOrRefusal(tokens, keyId, needed);
      if (counted.consumedPoints > tokenLimit) {
        // Another request took the room between the check and now: give back what this one took.
        await tokens.reward(keyId, needed);
        if (requests) await requests.reward(keyId, 1);
        const used = counted.consumedPoints - needed;
        throw tokensRefusal({ used, needed, limit: tokenLimit, windowSeconds, retryAfterMs: counted.msBeforeNext });
      }
    }
  }

  async function charge(keyId: string, limits: KeyLimits, tokens: number): Promise<void> {
    const points = wholeTokens(tokens);
    if (limits.tokens === undefined || points === 0) return;
    try {
      await windowFor('tokens', limits.tokens, limits.windowSeconds ?? DEFAULT_WINDOW_SECONDS).penalty(keyId, points);
    } catch {
      // A count after the fact must never fail a request that has already been served.
    }
  }

  return { admit, charge };
}

/** `consume`, resolving with the counter either way (it rejects with a `RateLimiterRes` when over). */
async function consumeOrRefusal(limiter: RateLimiterMemory, keyId: string, points: number): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(keyId, points);
  } catch (refusal) {
    if (refusal instanceof RateLimiterRes) return refusal;
    throw refusal;
  }
}

/** Token counts are whole and non-negative (the memory store truncates fractions). */
function wholeTokens(tokens: number): number {
  return Number.isFinite(tokens) && tokens > 0 ? Math.ceil(tokens) : 0;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function requestsRefusal(limit: number, windowSeconds: number, retryAfterMs: number): GatewayError {
  return new GatewayError({
    code: 'RATE_LIMITED',
    message: `Rate limit reached: this key allows ${limit} requests per ${windowSeconds} seconds. Try again in ${seconds(retryAfterMs)} s.`,
    retryAfterMs,
  });
}

type TokensRefusal = { used: number; needed: number; limit: number; windowSeconds: number; retryAfterMs: number };

function tokensRefusal(refusal: TokensRefusal): GatewayError {
  const { used, needed, limit, windowSeconds, retryAfterMs } = refusal;
  const state =
    used >= limit
      ? `${used} of them are used in this window`
      : `this request needs about ${needed} (estimated) and only ${limit - used} are left in this window`;
  return new GatewayError({
    code: 'RATE_LIMITED',
    message: `Token rate limit reached: this key allows ${limit} tokens per ${windowSeconds} seconds and ${state}. Try again in ${seconds(retryAfterMs)} s.`,
    retryAfterMs,
  });
}

/** A 413, not a 429: no wait helps a request larger than the whole window (spec §7.1: reduce the prompt). */
function tokensNeverFit(needed: number, limit: number, windowSeconds: number): GatewayError {
  return new GatewayError({
    code: 'PROMPT_TOO_LARGE',
    message: `This request needs about ${needed} tokens (estimated), more than this key's whole limit of ${limit} tokens per ${windowSeconds} seconds, so it can never pass. Shorten the prompt or raise the key's token limit.`,
  });
}
