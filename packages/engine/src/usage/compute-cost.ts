import type { Usage } from '@signalbox/core';
import type { RouteConfig } from '../config/gateway-config';

type Pricing = NonNullable<RouteConfig['pricing']>;

/**
 * The cost of a usage in micro-units. Prices are per million tokens and a unit is a million
 * micro-units, so each token costs exactly its price in micros. Cached input is billed at the
 * cached price when the route has one; counts the upstream did not report count as 0.
 */
export function computeCostMicros(pricing: Pricing | undefined, usage: Usage): number {
  if (!pricing) return 0;
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cacheReadTokens ?? 0, input);
  const cachedPrice = pricing.cachedInputPerMillion ?? pricing.inputPerMillion;
  const cost =
    (input - cached) * pricing.inputPerMillion + cached * cachedPrice + (usage.outputTokens ?? 0) * pricing.outputPerMillion;
  return Math.ceil(cost);
}
