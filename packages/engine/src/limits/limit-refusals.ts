import { GatewayError, retryAfterSeconds } from '@signalbox/core';

/**
 * The refusals of every `Limiter`, worded once so a shared (Redis) limiter answers exactly like the
 * memory one: the same codes, statuses and messages, with `retryAfterMs` from the limiter's state.
 */

/** Token counts are whole and non-negative: fractions round up, anything else counts as 0. */
export function wholeTokens(tokens: number): number {
  return Number.isFinite(tokens) && tokens > 0 ? Math.ceil(tokens) : 0;
}

/** `RATE_LIMITED`: the requests window is full. */
export function requestsRefusal(limit: number, windowSeconds: number, retryAfterMs: number): GatewayError {
  return new GatewayError({
    code: 'RATE_LIMITED',
    message: `Rate limit reached: this key allows ${limit} requests per ${windowSeconds} seconds. Try again in ${retryAfterSeconds(retryAfterMs)} s.`,
    retryAfterMs,
  });
}

export type TokensRefusal = { used: number; needed: number; limit: number; windowSeconds: number; retryAfterMs: number };

/** `RATE_LIMITED`: the tokens window is used up, or has less room than the request's estimate. */
export function tokensRefusal(refusal: TokensRefusal): GatewayError {
  const { used, needed, limit, windowSeconds, retryAfterMs } = refusal;
  const state =
    used >= limit
      ? `${used} of them are used in this window`
      : `this request needs about ${needed} (estimated) and only ${limit - used} are left in this window`;
  return new GatewayError({
    code: 'RATE_LIMITED',
    message: `Token rate limit reached: this key allows ${limit} tokens per ${windowSeconds} seconds and ${state}. Try again in ${retryAfterSeconds(retryAfterMs)} s.`,
    retryAfterMs,
  });
}

/**
 * A 413, not a 429: a request larger than the key's whole token window can never pass, so telling
 * the client to wait would only make it retry in vain; the fix is a shorter prompt or a higher limit.
 */
export function tokensNeverFit(needed: number, limit: number, windowSeconds: number): GatewayError {
  return new GatewayError({
    code: 'PROMPT_TOO_LARGE',
    message: `This request needs about ${needed} tokens (estimated), more than this key's whole limit of ${limit} tokens per ${windowSeconds} seconds, so it can never pass. Shorten the prompt or raise the key's token limit.`,
  });
}

/** `QUOTA_EXCEEDED`, with `Retry-After` = when the quota period ends. */
export function quotaRefusal(tokens: number, hours: number, retryAfterMs: number): GatewayError {
  return new GatewayError({
    code: 'QUOTA_EXCEEDED',
    message: `This key's quota of ${tokens} tokens per ${hours} hours is used up.`,
    retryAfterMs,
  });
}

/** `CONCURRENCY_LIMITED` at once: every slot is held and the key has no queue. */
export function noSlotRefusal(concurrency: number, retryAfterMs: number): GatewayError {
  return new GatewayError({
    code: 'CONCURRENCY_LIMITED',
    message: `Too many concurrent requests: this key allows ${concurrency} at once. Retry when one finishes.`,
    retryAfterMs,
  });
}

/** `CONCURRENCY_LIMITED` after queueing: no slot freed within the key's `queueTimeoutMs`. */
export function queueTimeoutRefusal(timeoutMs: number, concurrency: number, retryAfterMs: number): GatewayError {
  return new GatewayError({
    code: 'CONCURRENCY_LIMITED',
    message: `No concurrency slot freed within ${timeoutMs} ms: this key allows ${concurrency} request(s) at once. Retry later or lower your concurrency.`,
    retryAfterMs,
  });
}

export type QueueFullRefusal = { active: number; waiting: number; queueSize: number; retryAfterMs: number };

/** `QUEUE_FULL`: every slot is held and the key's queue has no room. */
export function queueFullRefusal(refusal: QueueFullRefusal): GatewayError {
  return new GatewayError({
    code: 'QUEUE_FULL',
    message: `The queue for this key is full: ${refusal.active} request(s) running and ${refusal.waiting} waiting (at most ${refusal.queueSize}). Retry later.`,
    retryAfterMs: refusal.retryAfterMs,
  });
}
