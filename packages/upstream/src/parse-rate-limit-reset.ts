import { parseRetryAfterMs } from './parse-retry-after';

type Headers = Record<string, string | string[] | undefined>;

/** Anthropic's limits: `anthropic-ratelimit-<limit>-reset` is an RFC 3339 time, `-remaining` what is left. */
const ANTHROPIC_LIMITS = ['requests', 'tokens', 'input-tokens', 'output-tokens'] as const;
/** OpenAI's limits: `x-ratelimit-reset-<limit>` is a duration (`6m0s`, `1.5s`, `12ms`), `x-ratelimit-remaining-<limit>` what is left. */
const OPENAI_LIMITS = ['requests', 'tokens'] as const;

/**
 * When a rate-limited upstream takes requests again, in ms from `now` (epoch ms): the upstream's
 * own `retry-after-ms` / `retry-after` first; else the latest reset of a limit it says is used up
 * (remaining 0); else the earliest reset it names. `undefined` when it names none.
 * @see https://docs.anthropic.com/en/api/rate-limits#response-headers
 * @see https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers
 */
export function parseRateLimitResetMs(headers: Headers, now: number): number | undefined {
  const retryAfter = parseRetryAfterMs(headers, now);
  if (retryAfter !== undefined) return retryAfter;
  let exhausted: number | undefined;
  let earliest: number | undefined;
  const consider = (resetMs: number | undefined, remaining: string | undefined) => {
    if (resetMs === undefined) return;
    earliest = earliest === undefined ? resetMs : Math.min(earliest, resetMs);
    if (remaining !== undefined && Number(remaining) === 0) exhausted = Math.max(exhausted ?? 0, resetMs);
  };
  for (const limit of ANTHROPIC_LIMITS) {
    const reset = Date.parse(firstValue(headers[`anthropic-ratelimit-${limit}-reset`]) ?? '');
    consider(Number.isFinite(reset) ? Math.max(0, reset - now) : undefined, firstValue(headers[`anthropic-ratelimit-${limit}-remaining`]));
  }
  for (const limit of OPENAI_LIMITS) {
    consider(parseDurationMs(firstValue(headers[`x-ratelimit-reset-${limit}`])), firstValue(headers[`x-ratelimit-remaining-${limit}`]));
  }
  return exhausted ?? earliest;
}

/** A Go-style duration as OpenAI writes resets (`1m26.4s`, `6m0s`, `12ms`, `2h`), in ms; `undefined` if it is not one. */
export function parseDurationMs(value: string | undefined): number | undefined {
  if (value === undefined || !/^(?:\d+(?:\.\d+)?(?:h|ms|m|s))+$/.test(value.trim())) return undefined;
  let total = 0;
  for (const [, amount, unit] of value.trim().matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)) total += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return total;
}

const UNIT_MS = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
