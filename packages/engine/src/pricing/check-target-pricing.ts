import type { z } from 'zod';
import { PRICE_PARTS, type ModelPricing } from './model-pricing';

type PricedRoute = {
  pricing?: ModelPricing | 'catalog' | undefined;
  targetPricing?: Readonly<Record<string, ModelPricing>> | undefined;
  targets: ReadonlyArray<{ model: string }>;
};

/**
 * A route's `targetPricing` (each target model's own prices, which its charge takes) names only its
 * targets' models and goes with prices of its own that are at least each of them, part by part:
 * requests are held at `pricing`, so a charge never exceeds its hold. A catalog route gets it from
 * the catalog instead.
 */
export function checkTargetPricing(route: PricedRoute, index: number, context: z.RefinementCtx): void {
  const { pricing, targetPricing } = route;
  if (targetPricing === undefined) return;
  const path = ['routes', index, 'targetPricing'];
  if (pricing === undefined || pricing === 'catalog') {
    const message = pricing === 'catalog' ? 'a catalog route takes its targets\' prices from the catalog' : 'needs the route\'s pricing, at which requests are held';
    context.addIssue({ code: 'custom', path, message });
    return;
  }
  const models = new Set(route.targets.map(target => target.model));
  for (const [model, price] of Object.entries(targetPricing)) {
    if (!models.has(model)) context.addIssue({ code: 'custom', path: [...path, model], message: `'${model}' is not a target model of the route` });
    for (const [part, read] of PRICE_PARTS) {
      if (read(price) > read(pricing)) {
        context.addIssue({ code: 'custom', path: [...path, model, part], message: `is above the route's pricing (${read(pricing)}), at which requests are held` });
      }
    }
  }
}
