import { headerValue, type HeaderMap, type RateLimitReset } from '@signalbox/core';

/** The limits Anthropic describes in `anthropic-ratelimit-<limit>-reset` / `-remaining`. */
const LIMITS = ['requests', 'tokens', 'input-tokens', 'output-tokens'] as const;

/**
 * Anthropic's rate limits from its response headers: each reset is an RFC 3339 time (a past one
 * reads as 0), each remaining count says whether the limit is used up.
 * @see https://docs.anthropic.com/en/api/rate-limits#response-headers
 */
export function readAnthropicRateLimitResets(headers: HeaderMap, now: number): RateLimitReset[] {
  const resets: RateLimitReset[] = [];
  for (const limit of LIMITS) {
    const reset = Date.parse(headerValue(headers, `anthropic-ratelimit-${limit}-reset`) ?? '');
    if (!Number.isFinite(reset)) continue;
    const remaining = headerValue(headers, `anthropic-ratelimit-${limit}-remaining`);
    resets.push({ inMs: Math.max(0, reset - now), exhausted: remaining !== undefined && Number(remaining) === 0 });
  }
  return resets;
}
