import type { RouteConfig } from '../config/gateway-config';
import { computeCostMicros, highestInputPrice } from '../usage/compute-cost';

type Pricing = NonNullable<RouteConfig['pricing']>;

/**
 * The smallest output cap the gateway gives an upstream: below it an answer is hardly useful, and
 * OpenAI's Responses API refuses `max_output_tokens` under 16.
 */
export const MINIMUM_OUTPUT_CAP_TOKENS = 16;

/** What a priced request may produce and the most it may then cost, for its hold. */
export type OutputCap = { outputTokens: number; holdMicros: number };

/**
 * The output cap of a priced request that the account's available balance covers, or `undefined`
 * when not even `MINIMUM_OUTPUT_CAP_TOKENS` (or the client's own smaller limit) is affordable:
 * - the client's own limit, when it set one and the balance covers it;
 * - otherwise the route's `reserveOutputTokens`, or as many tokens as the balance affords if that is
 *   less (never more than the client's own limit).
 */
export function chooseOutputCap(input: {
  pricing: Pricing;
  estimatedInputTokens: number;
  clientLimit: number | undefined;
  reserveOutputTokens: number;
  availableMicros: number;
}): OutputCap | undefined {
  const { estimatedInputTokens, clientLimit, availableMicros } = input;
  // The input is held at its highest price: the whole prompt may be written to a cache.
  const pricing = { inputPerMillion: highestInputPrice(input.pricing), outputPerMillion: input.pricing.outputPerMillion };
  const costOf = (outputTokens: number) =>
    computeCostMicros(pricing, {
      inputTokens: estimatedInputTokens,
      outputTokens,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
      cacheWrite1hTokens: undefined,
      reasoningTokens: undefined,
    });
  const capOf = (outputTokens: number): OutputCap => ({ outputTokens, holdMicros: costOf(outputTokens) });
  if (clientLimit !== undefined && costOf(clientLimit) <= availableMicros) return capOf(clientLimit);
  const wanted = Math.min(input.reserveOutputTokens, clientLimit ?? Number.POSITIVE_INFINITY);
  let outputTokens = Math.min(wanted, affordableOutputTokens(pricing, availableMicros - costOf(0)));
  // Costs round up to whole micro-units: step down past a rounding edge.
  while (outputTokens > 0 && costOf(outputTokens) > availableMicros) outputTokens -= 1;
  if (outputTokens < Math.min(MINIMUM_OUTPUT_CAP_TOKENS, wanted)) return undefined;
  return capOf(outputTokens);
}

function affordableOutputTokens(pricing: Pricing, micros: number): number {
  if (micros < 0) return 0;
  if (pricing.outputPerMillion === 0) return Number.POSITIVE_INFINITY;
  return Math.floor(micros / pricing.outputPerMillion);
}
