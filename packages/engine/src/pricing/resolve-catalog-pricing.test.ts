import { ConfigError } from '../config/config-error';
import { parseGatewayConfig } from '../config/parse-gateway-config';
import { parsePriceCatalog, type PriceCatalog } from './price-catalog';
import { SHIPPED_PRICE_CATALOG } from './shipped-price-catalog';

const upstreams = { anthropic: { provider: 'anthropic' } };
const catalogRoute = (...models: string[]) => ({
  model: 'team',
  interfaces: ['messages'],
  targets: models.map(model => ({ upstream: 'anthropic', model })),
  pricing: 'catalog' as const,
});

const operatorCatalog: PriceCatalog = {
  asOf: '2027-01-15',
  currency: 'USD',
  vendors: {
    example: {
      source: 'https://vendor.example/pricing',
      asOf: '2027-01-14',
      models: {
        'cheap-1': { inputPerMillion: 1, outputPerMillion: 4 },
        'dear-1': { inputPerMillion: 3, outputPerMillion: 12, cachedInputPerMillion: 0.3 },
      },
    },
  },
};

describe('pricing: "catalog"', () => {
  it("prices a route at its target model's prices in the shipped catalog", () => {
    const config = parseGatewayConfig({ upstreams, routes: [catalogRoute('claude-sonnet-4-20250514')] });
    expect(config.routes[0]?.pricing).toEqual({
      inputPerMillion: 3,
      outputPerMillion: 15,
      cachedInputPerMillion: 0.3,
      cacheWritePerMillion: 3.75,
      cacheWrite1hPerMillion: 6,
    });
  });

  it("holds at each part's highest price among the targets (a missing cache price counting as the input price) and keeps each model's own for its charge", () => {
    const config = parseGatewayConfig({ upstreams, routes: [catalogRoute('cheap-1', 'dear-1')] }, { priceCatalog: operatorCatalog });
    expect(config.routes[0]?.pricing).toEqual({
      inputPerMillion: 3,
      outputPerMillion: 12,
      cachedInputPerMillion: 1,
      cacheWritePerMillion: 3,
      cacheWrite1hPerMillion: 3,
    });
    expect(config.routes[0]?.targetPricing).toEqual(operatorCatalog.vendors.example!.models);
  });

  it("names a model the catalog lacks, with the catalog's date", () => {
    const failure = (() => {
      try {
        parseGatewayConfig({ upstreams, routes: [catalogRoute('claude-sonnet-4-20250514', 'claude-unknown-9')] });
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).problems).toEqual([
      `routes.0.targets.1.model: 'claude-unknown-9' is not in the price catalog (as of ${SHIPPED_PRICE_CATALOG.asOf}); give the route its own pricing, or import a catalog that lists it`,
    ]);
  });

  it('keeps prices written by hand as they are', () => {
    const pricing = { inputPerMillion: 2, outputPerMillion: 8 };
    const config = parseGatewayConfig({ upstreams, routes: [{ ...catalogRoute('anything'), pricing }] });
    expect(config.routes[0]?.pricing).toEqual(pricing);
  });
});

describe('parsePriceCatalog', () => {
  it('accepts a well-formed catalog and lists every problem of a bad one', () => {
    expect(parsePriceCatalog(operatorCatalog)).toEqual({ catalog: operatorCatalog });
    const badSource = { ...operatorCatalog, vendors: { ...operatorCatalog.vendors, other: { source: 'ftp://x', asOf: '2027-01-14', models: {} } } };
    expect(parsePriceCatalog(badSource)).toEqual({ problems: [expect.stringMatching(/^vendors\.other\.source: /)] });
    const twice = { ...operatorCatalog, vendors: { ...operatorCatalog.vendors, other: { ...operatorCatalog.vendors.example!, source: 'https://x.example' } } };
    expect(parsePriceCatalog(twice)).toEqual({
      problems: ["vendors.other.models.cheap-1: also listed under 'example'", "vendors.other.models.dear-1: also listed under 'example'"],
    });
  });

  it('holds the shipped catalog to the same schema, each vendor with its source and date', () => {
    expect(parsePriceCatalog(SHIPPED_PRICE_CATALOG)).toEqual({ catalog: SHIPPED_PRICE_CATALOG });
    for (const vendor of Object.values(SHIPPED_PRICE_CATALOG.vendors)) expect(vendor.source).toMatch(/^https:\/\//);
  });
});

describe('targetPricing', () => {
  const route = (extra: Record<string, unknown>) => ({ ...catalogRoute('cheap-1', 'dear-1'), pricing: { inputPerMillion: 3, outputPerMillion: 12 }, ...extra });
  const problemsOf = (config: Record<string, unknown>) => {
    try {
      parseGatewayConfig(config, { priceCatalog: operatorCatalog });
      return [];
    } catch (error) {
      return (error as ConfigError).problems;
    }
  };

  it('may be given by hand, each target model at or below the prices the route holds at', () => {
    const targetPricing = { 'cheap-1': { inputPerMillion: 1, outputPerMillion: 4 }, 'dear-1': { inputPerMillion: 3, outputPerMillion: 12 } };
    expect(parseGatewayConfig({ upstreams, routes: [route({ targetPricing })] }).routes[0]?.targetPricing).toEqual(targetPricing);
  });

  it('refuses a price above the held one, a model that is no target, no pricing to hold at, and a catalog route', () => {
    const above = { 'dear-1': { inputPerMillion: 3, outputPerMillion: 13, cachedInputPerMillion: 4 } };
    expect(problemsOf({ upstreams, routes: [route({ targetPricing: above })] })).toEqual([
      "routes.0.targetPricing.dear-1.outputPerMillion: is above the route's pricing (12), at which requests are held",
      "routes.0.targetPricing.dear-1.cachedInputPerMillion: is above the route's pricing (3), at which requests are held",
    ]);
    expect(problemsOf({ upstreams, routes: [route({ targetPricing: { 'other-1': { inputPerMillion: 1, outputPerMillion: 1 } } })] })).toEqual([
      "routes.0.targetPricing.other-1: 'other-1' is not a target model of the route",
    ]);
    const own = { 'cheap-1': { inputPerMillion: 1, outputPerMillion: 4 } };
    expect(problemsOf({ upstreams, routes: [{ ...catalogRoute('cheap-1'), pricing: undefined, targetPricing: own }] })).toEqual([
      "routes.0.targetPricing: needs the route's pricing, at which requests are held",
    ]);
    expect(problemsOf({ upstreams, routes: [{ ...catalogRoute('cheap-1'), targetPricing: own }] })).toEqual([
      "routes.0.targetPricing: a catalog route takes its targets' prices from the catalog",
    ]);
  });

  it("is what a catalog route's parsed config carries, so parsing it again keeps it", () => {
    const once = parseGatewayConfig({ upstreams, routes: [catalogRoute('cheap-1', 'dear-1')] }, { priceCatalog: operatorCatalog });
    const twice = parseGatewayConfig(once);
    expect(twice.routes[0]?.pricing).toEqual(once.routes[0]?.pricing);
    expect(twice.routes[0]?.targetPricing).toEqual(once.routes[0]?.targetPricing);
  });
});

