import { headerValue, type HeaderMap, type RateLimitReset } from '@signalbox/core';

/** The limits OpenAI describes in `x-ratelimit-reset-<limit>` / `x-ratelimit-remaining-<limit>`. */
const LIMITS = ['requests', 'tokens'] as const;

/**
 * OpenAI's rate limits from its response headers: each reset is a duration from now (`6m0s`,
 * `1.5s`, `12ms`), each remaining count says whether the limit is used up.
 * @see https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers
 */
export function readOpenAIRateLimitResets(headers: HeaderMap): RateLimitReset[] {
  const resets: RateLimitReset[] = [];
  for (const limit of LIMITS) {
    const inMs = parseDurationMs(headerValue(headers, `x-ratelimit-reset-${limit}`));
    if (inMs === undefined) continue;
    const remaining = headerValue(headers, `x-ratelimit-remaining-${limit}`);
    resets.push({ inMs, exhausted: remaining !== undefined && Number(remaining) === 0 });
  }
  return resets;
}

/** A Go-style duration as OpenAI writes resets (`1m26.4s`, `6m0s`, `12ms`, `2h`), in ms; `undefined` if it is not one. */
export function parseDurationMs(value: string | undefined): number | undefined {
  if (value === undefined || !/^(?:\d+(?:\.\d+)?(?:h|ms|m|s))+$/.test(value.trim())) return undefined;
  let total = 0;
  for (const [, amount, unit] of value.trim().matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)) total += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return total;
}

const UNIT_MS = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
