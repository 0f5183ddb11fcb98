import type { RateLimitDecision } from './rate-limit-bucket';
import { simulatorError, type SimulatorError } from './simulator-error';

/** A refused request in one protocol's words: the error for its envelope and the headers that go with it. */
export type RateLimitRefusal = { error: SimulatorError; headers: Record<string, string> };

/**
 * Messages rate-limit headers, sent on every answer to a limited key; the reset is an RFC 3339 time.
 * @see https://docs.anthropic.com/en/api/rate-limits#response-headers
 */
export function anthropicRateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'anthropic-ratelimit-requests-limit': String(decision.limit),
    'anthropic-ratelimit-requests-remaining': String(decision.remaining),
    'anthropic-ratelimit-requests-reset': new Date(Math.ceil(decision.resetAt / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
  };
}

/**
 * OpenAI rate-limit headers, sent on every answer to a limited key; the reset is a duration (`1s`, `6m0s`, `12ms`).
 * @see https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers
 */
export function openAIRateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'x-ratelimit-limit-requests': String(decision.limit),
    'x-ratelimit-remaining-requests': String(decision.remaining),
    'x-ratelimit-reset-requests': formatDuration(decision.resetAt - decision.now),
  };
}

/** The Messages 429: `rate_limit_error`, `retry-after` in whole seconds, and the rate-limit headers. */
export function anthropicRateLimitRefusal(decision: RateLimitDecision): RateLimitRefusal {
  const message = `This request would exceed your organization's rate limit of ${decision.limit} requests per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please try again later.`;
  return { error: simulatorError(429, message), headers: { ...anthropicRateLimitHeaders(decision), 'retry-after': retryAfter(decision) } };
}

/** The OpenAI 429 as the API words a requests-per-minute limit: type `requests`, code `rate_limit_exceeded`. */
export function openAIRateLimitRefusal(decision: RateLimitDecision): RateLimitRefusal {
  const wait = formatDuration(decision.retryAfterMs);
  const message = `Rate limit reached for requests per min (RPM): Limit ${decision.limit}, Used ${decision.limit}, Requested 1. Please try again in ${wait}. Visit https://platform.openai.com/account/rate-limits to learn more.`;
  const error = simulatorError(429, message, { type: 'requests', code: 'rate_limit_exceeded' });
  return { error, headers: { ...openAIRateLimitHeaders(decision), 'retry-after': retryAfter(decision) } };
}

/**
 * The Gemini API's 429: `RESOURCE_EXHAUSTED` with the quota it hit and a `RetryInfo` delay, which
 * Gemini CLI reads to wait and retry a per-minute quota; Google sends no rate-limit headers.
 * @see https://ai.google.dev/gemini-api/docs/rate-limits
 */
export function googleRateLimitRefusal(decision: RateLimitDecision): RateLimitRefusal {
  const message = 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.';
  return { error: simulatorError(429, message, { retryDelaySeconds: Number(retryAfter(decision)) }), headers: {} };
}

/** Whole seconds, at least 1: `retry-after` as the SDKs read it. */
function retryAfter(decision: RateLimitDecision): string {
  return String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
}

/** A duration the way OpenAI writes it (Go's notation): `12ms`, `1s`, `20.5s`, `1m26.4s`, `6m0s`, `1h0m0s`. */
export function formatDuration(milliseconds: number): string {
  const total = Math.max(0, Math.ceil(milliseconds));
  if (total < 1000) return total === 0 ? '0s' : `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = `${Number(((total % 60_000) / 1000).toFixed(3))}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  return minutes > 0 ? `${minutes}m${seconds}` : seconds;
}
