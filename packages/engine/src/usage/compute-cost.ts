import type { Usage } from '@signalbox/core';
import type { RouteConfig } from '../config/gateway-config';

type Pricing = NonNullable<RouteConfig['pricing']>;

/** A usage's input tokens by the price each is billed at. */
export type InputTokenParts = {
  uncached: number;
  cacheRead: number;
  /** Cache writes of the default lifetime (5 minutes), and writes whose lifetime was not reported. */
  cacheWrite5m: number;
  cacheWrite1h: number;
};

/**
 * Splits the input tokens by price. Reads and writes are parts of `inputTokens` (the IR's
 * semantics), each taken from what is left of it, so counts that do not add up never bill a token
 * twice; writes not reported as 1-hour ones are 5-minute ones. Counts are whole and non-negative.
 */
export function splitInputTokens(usage: Usage): InputTokenParts {
  const input = tokens(usage.inputTokens);
  const cacheRead = Math.min(tokens(usage.cacheReadTokens), input);
  const cacheWrite = Math.min(tokens(usage.cacheWriteTokens), input - cacheRead);
  const cacheWrite1h = Math.min(tokens(usage.cacheWrite1hTokens), cacheWrite);
  return { uncached: input - cacheRead - cacheWrite, cacheRead, cacheWrite5m: cacheWrite - cacheWrite1h, cacheWrite1h };
}

/**
 * The cost of a usage in micro-units. A price per million tokens is, per token, that many micros:
 * uncached input at `inputPerMillion`, cache reads at `cachedInputPerMillion`, 5-minute writes at
 * `cacheWritePerMillion`, 1-hour writes at `cacheWrite1hPerMillion` (each absent price: the input
 * price), output (reasoning included) at `outputPerMillion`. The sum is exact (prices to a millionth
 * of a micro-unit, in integers) and rounded up to a whole micro-unit once, at the end.
 */
export function computeCostMicros(pricing: Pricing | undefined, usage: Usage): number {
  if (!pricing) return 0;
  const parts = splitInputTokens(usage);
  const input = pricing.inputPerMillion;
  const exact =
    priced(parts.uncached, input) +
    priced(parts.cacheRead, pricing.cachedInputPerMillion ?? input) +
    priced(parts.cacheWrite5m, pricing.cacheWritePerMillion ?? input) +
    priced(parts.cacheWrite1h, pricing.cacheWrite1hPerMillion ?? input) +
    priced(tokens(usage.outputTokens), pricing.outputPerMillion);
  return Number((exact + PRICE_SCALE - 1n) / PRICE_SCALE);
}

/**
 * What the prompt cache saved: the cost had every input token been billed at the input price, minus
 * the cost. Negative when the writes cost more than the reads saved (a cache written and never read).
 */
export function computeCacheSavingsMicros(pricing: Pricing | undefined, usage: Usage): number {
  if (!pricing) return 0;
  const uncached = { inputPerMillion: pricing.inputPerMillion, outputPerMillion: pricing.outputPerMillion };
  return computeCostMicros(uncached, usage) - computeCostMicros(pricing, usage);
}

/**
 * The highest price an input token of the route can have (a 1-hour cache write costs twice the input
 * price at Anthropic): holds price the estimated input at it, so a prompt written to a cache is covered.
 */
export function highestInputPrice(pricing: Pricing): number {
  const { inputPerMillion, cacheWritePerMillion, cacheWrite1hPerMillion } = pricing;
  return Math.max(inputPerMillion, cacheWritePerMillion ?? inputPerMillion, cacheWrite1hPerMillion ?? inputPerMillion);
}

/** Prices are used to a millionth of a micro-unit per token: integer arithmetic, no float drift. */
const PRICE_SCALE = 1_000_000n;

function priced(count: number, pricePerMillion: number): bigint {
  return BigInt(count) * BigInt(Math.round(pricePerMillion * Number(PRICE_SCALE)));
}

/** A reported count as a whole, non-negative number of tokens; unreported counts are 0. */
function tokens(count: number | undefined): number {
  return count === undefined || !Number.isFinite(count) ? 0 : Math.max(0, Math.round(count));
}
