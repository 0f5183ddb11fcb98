/**
 * One key's request allowance: `tokens` requests available as of `updatedAt`, refilling at the
 * per-minute rate; before `blockedUntil` every request is refused.
 */
export type RateLimitBucket = { tokens: number; updatedAt: number; blockedUntil: number };

/** A limit's verdict on one request, with what its headers say: times are epoch milliseconds. */
export type RateLimitDecision = {
  allowed: boolean;
  limit: number;
  /** Requests left after this one. */
  remaining: number;
  /** When the allowance is whole again. */
  resetAt: number;
  /** Refused only: how long until a request would be accepted. */
  retryAfterMs: number;
  now: number;
};

/** A full bucket. */
export function createRateLimitBucket(requestsPerMinute: number, now: number): RateLimitBucket {
  return { tokens: requestsPerMinute, updatedAt: now, blockedUntil: 0 };
}

/**
 * Takes one request from the bucket, or refuses it. A refusal with `retryAfterSeconds` (or a limit
 * of 0, which never refills) blocks the key for that long, after which its allowance is whole.
 */
export function takeRequest(
  bucket: RateLimitBucket,
  limits: { requestsPerMinute: number; retryAfterSeconds: number | undefined },
  now: number,
): RateLimitDecision {
  const limit = limits.requestsPerMinute;
  if (now < bucket.blockedUntil) return refusal(limit, bucket.blockedUntil, bucket.blockedUntil, now);
  const perMs = limit / 60_000;
  bucket.tokens = Math.min(limit, bucket.tokens + Math.max(0, now - bucket.updatedAt) * perMs);
  bucket.updatedAt = now;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return { allowed: true, limit, remaining: Math.floor(bucket.tokens), resetAt: now + Math.ceil((limit - bucket.tokens) / perMs), retryAfterMs: 0, now };
  }
  if (limits.retryAfterSeconds === undefined && limit > 0) {
    return refusal(limit, now + Math.ceil((limit - bucket.tokens) / perMs), now + Math.ceil((1 - bucket.tokens) / perMs), now);
  }
  bucket.blockedUntil = now + (limits.retryAfterSeconds ?? 60) * 1000;
  bucket.tokens = limit;
  bucket.updatedAt = bucket.blockedUntil;
  return refusal(limit, bucket.blockedUntil, bucket.blockedUntil, now);
}

function refusal(limit: number, resetAt: number, acceptedAt: number, now: number): RateLimitDecision {
  return { allowed: false, limit, remaining: 0, resetAt, retryAfterMs: acceptedAt - now, now };
}
