import { IMPLIED_KEY_LIMITS, type KeyLimits } from '@signalbox/accounts';
import { createFixedWindows } from './create-fixed-windows';
import { requestsRefusal, tokensNeverFit, tokensRefusal, wholeTokens } from './limit-refusals';

/** Length of a key's rate windows when its limits set none. */
export const DEFAULT_WINDOW_SECONDS = IMPLIED_KEY_LIMITS.windowSeconds;

/** Requests-per-window and tokens-per-window counters per key (see `createRateWindows`); in memory, so synchronous. */
export type RateWindows = {
  /** Counts one request and the estimated tokens, or throws `RATE_LIMITED` having counted nothing. */
  admit(keyId: string, limits: KeyLimits, estimatedTokens: number): void;
  /** Adds tokens learned after the fact; may push the window over its limit. Never throws. */
  charge(keyId: string, limits: KeyLimits, tokens: number): void;
};

/**
 * Fixed windows per key on the given clock (default `Date.now`): one requests counter and one
 * tokens counter per distinct (limit, window length), so a key whose limits change starts counting
 * afresh. A window opens with the key's first admitted request and lasts `windowSeconds`.
 *
 * A request is admitted only when one more request fits in the requests window and its token
 * estimate fits in what is left of the tokens window; check and count happen in one synchronous
 * step, so concurrent requests of one process cannot both take the last room, and a refused request
 * leaves both windows as they were. `retryAfterMs` is the time left in the window that refused.
 */
export function createRateWindows(options: { now?: () => number } = {}): RateWindows {
  const windows = createFixedWindows(options.now ?? Date.now);

  function admit(keyId: string, limits: KeyLimits, estimatedTokens: number): void {
    const windowSeconds = limits.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
    const windowMs = windowSeconds * 1000;
    const needed = wholeTokens(estimatedTokens);
    const { requests: requestLimit, tokens: tokenLimit } = limits;
    const tokensCounter = tokenLimit === undefined ? undefined : counterName('tokens', tokenLimit, windowSeconds, keyId);
    const requestsCounter = requestLimit === undefined ? undefined : counterName('requests', requestLimit, windowSeconds, keyId);
    if (tokensCounter !== undefined && tokenLimit !== undefined) {
      if (needed > tokenLimit) throw tokensNeverFit(needed, tokenLimit, windowSeconds);
      const window = windows.read(tokensCounter);
      if (window && (window.used >= tokenLimit || window.used + needed > tokenLimit)) {
        throw tokensRefusal({ used: window.used, needed, limit: tokenLimit, windowSeconds, retryAfterMs: window.msLeft });
      }
    }
    if (requestsCounter !== undefined && requestLimit !== undefined) {
      const window = windows.read(requestsCounter);
      if (window && window.used >= requestLimit) throw requestsRefusal(requestLimit, windowSeconds, window.msLeft);
      windows.add(requestsCounter, 1, windowMs);
    }
    // Counted even when the estimate is 0: the tokens window opens with the request, like the requests one.
    if (tokensCounter !== undefined) windows.add(tokensCounter, needed, windowMs);
  }

  return {
    admit,
    charge(keyId, limits, tokens) {
      const points = wholeTokens(tokens);
      if (limits.tokens === undefined || points === 0) return;
      const windowSeconds = limits.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
      windows.add(counterName('tokens', limits.tokens, windowSeconds, keyId), points, windowSeconds * 1000);
    },
  };
}

/** The key ID comes last, after a fixed number of separators, so two counters never share a name. */
function counterName(kind: 'requests' | 'tokens', limit: number, windowSeconds: number, keyId: string): string {
  return `${kind}:${limit}:${windowSeconds}:${keyId}`;
}
