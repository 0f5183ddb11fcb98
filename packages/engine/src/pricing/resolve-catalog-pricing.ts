import { findCatalogPrice, type PriceCatalog } from './price-catalog';
import { PRICE_PARTS, type ModelPricing } from './model-pricing';

/** A route as parsed: its `pricing` is prices, `catalog`, or absent. */
type RouteWithPricing = { pricing?: ModelPricing | 'catalog' | undefined; targets: ReadonlyArray<{ model: string }> };

/** A route with its prices known: `targetPricing` by target model when they came from the catalog. */
type PricedRoute<Route> = Omit<Route, 'pricing'> & { pricing?: ModelPricing; targetPricing?: Record<string, ModelPricing> };

/**
 * Each route's `pricing: "catalog"` replaced by prices from `catalog`: `pricing` the highest of its
 * targets' prices, part by part, which its holds take, so a failover never costs more than was held;
 * `targetPricing` each target model's own, which its charge takes for the model that served. A
 * target model the catalog does not list is a problem naming it and the catalog's date.
 */
export function resolveCatalogPricing<Route extends RouteWithPricing>(
  routes: readonly Route[],
  catalog: PriceCatalog,
): { routes: Array<PricedRoute<Route>>; problems: string[] } {
  const problems: string[] = [];
  const resolved = routes.map((route, index): PricedRoute<Route> => {
    if (route.pricing !== 'catalog') return route as PricedRoute<Route>;
    const targetPricing: Record<string, ModelPricing> = {};
    route.targets.forEach((target, position) => {
      const found = findCatalogPrice(catalog, target.model);
      if (found !== undefined) targetPricing[target.model] = found;
      else {
        problems.push(
          `routes.${index}.targets.${position}.model: '${target.model}' is not in the price catalog (as of ${catalog.asOf}); ` +
            'give the route its own pricing, or import a catalog that lists it',
        );
      }
    });
    return { ...route, pricing: highestPrices(Object.values(targetPricing)), targetPricing };
  });
  return { routes: resolved, problems };
}

/** Each part's highest price among `prices` (a cache price a model lacks counts as its input price). */
function highestPrices(prices: readonly ModelPricing[]): ModelPricing {
  return Object.fromEntries(PRICE_PARTS.map(([part, read]) => [part, Math.max(0, ...prices.map(read))])) as ModelPricing;
}
