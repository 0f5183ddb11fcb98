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

/** What a request cost and what the prompt cache saved, in micro-units. */
export type UsageCost = {
  costMicros: number;
  /**
   * The cost had every input token been billed at the input price, minus the cost: negative when
   * cache writes cost more than the reads saved (a cache written and never read).
   */
  cacheSavingsMicros: number;
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
  return sumMicros(splitInputTokens(usage), tokens(usage.outputTokens), pricesOf(pricing));
}

/** The cost (`computeCostMicros`) and what the cache saved, from one split of the usage. */
export function priceUsage(pricing: Pricing | undefined, usage: Usage): UsageCost {
  if (!pricing) return { costMicros: 0, cacheSavingsMicros: 0 };
  const parts = splitInputTokens(usage);
  const output = tokens(usage.outputTokens);
  const prices = pricesOf(pricing);
  const costMicros = sumMicros(parts, output, prices);
  const input = parts.uncached + parts.cacheRead + parts.cacheWrite5m + parts.cacheWrite1h;
  const uncachedMicros = sumMicros({ uncached: input, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0 }, output, prices);
  return { costMicros, cacheSavingsMicros: uncachedMicros - costMicros };
}

/**
 * The highest price an input token of the route can have (a 1-hour cache write costs twice the input
 * price at Anthropic): holds price the estimated input at it, so a prompt written to a cache is covered.
 */
export function highestInputPrice(pricing: Pricing): number {
  const { inputPerMillion, cacheWritePerMillion, cacheWrite1hPerMillion } = pricing;
  return Math.max(inputPerMillion, cacheWritePerMillion ?? inputPerMillion, cacheWrite1hPerMillion ?? inputPerMillion);
}

/** Prices are used to a millionth of a micro-unit per token, as integers: no binary float drift. */
const PRICE_SCALE = 1_000_000;

/** The route's prices in millionths of a micro-unit per token, for each part of a usage. */
type ScaledPrices = { uncached: number; cacheRead: number; cacheWrite5m: number; cacheWrite1h: number; output: number };

function pricesOf(pricing: Pricing): ScaledPrices {
  const scaled = (price: number) => Math.round(price * PRICE_SCALE);
  const input = pricing.inputPerMillion;
  return {
    uncached: scaled(input),
    cacheRead: scaled(pricing.cachedInputPerMillion ?? input),
    cacheWrite5m: scaled(pricing.cacheWritePerMillion ?? input),
    cacheWrite1h: scaled(pricing.cacheWrite1hPerMillion ?? input),
    output: scaled(pricing.outputPerMillion),
  };
}

/**
 * Σ tokens × scaled price, rounded up to whole micro-units. In doubles while the total is a safe
 * integer (every product and partial sum is then exact: none is negative); past that, in BigInt.
 */
function sumMicros(parts: InputTokenParts, output: number, prices: ScaledPrices): number {
  const total =
    parts.uncached * prices.uncached +
    parts.cacheRead * prices.cacheRead +
    parts.cacheWrite5m * prices.cacheWrite5m +
    parts.cacheWrite1h * prices.cacheWrite1h +
    output * prices.output;
  if (total <= Number.MAX_SAFE_INTEGER) {
    const remainder = total % PRICE_SCALE;
    return (total - remainder) / PRICE_SCALE + (remainder > 0 ? 1 : 0);
  }
  const big = (count: number, price: number) => BigInt(count) * BigInt(price);
  const exact =
    big(parts.uncached, prices.uncached) +
    big(parts.cacheRead, prices.cacheRead) +
    big(parts.cacheWrite5m, prices.cacheWrite5m) +
    big(parts.cacheWrite1h, prices.cacheWrite1h) +
    big(output, prices.output);
  const scale = BigInt(PRICE_SCALE);
  return Number((exact + scale - 1n) / scale);
}

/** A reported count as a whole, non-negative number of tokens; unreported counts are 0. */
function tokens(count: number | undefined): number {
  return count === undefined || !Number.isFinite(count) ? 0 : Math.max(0, Math.round(count));
}
