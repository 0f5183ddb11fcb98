import type { Codec } from '@signalbox/core';
import { checkConfigProtocols } from './check-config-protocols';
import { ConfigError } from './config-error';
import { describeUnknownKeys } from './describe-unknown-keys';
import { gatewayConfigSchema, type GatewayConfig } from './gateway-config';
import type { PriceCatalog } from '../pricing/price-catalog';
import { resolveCatalogPricing } from '../pricing/resolve-catalog-pricing';
import { SHIPPED_PRICE_CATALOG } from '../pricing/shipped-price-catalog';

export type ParseGatewayConfigOptions = {
  /**
   * The codecs the gateway will be given: the protocol and interface names are checked against
   * them here, as `createEngine` does, so a host finds every config error before it opens anything.
   */
  codecs?: readonly Codec[];
  /** Top-level sections the host took out of the same document before parsing: suggested for a mistyped top-level key. */
  hostSections?: readonly string[];
  /** The catalog routes with `pricing: "catalog"` are priced from. Default: the shipped one. */
  priceCatalog?: PriceCatalog;
};

/**
 * Validates a config object (parsed from JSON or YAML) and fills in defaults: each upstream's
 * provider preset, each `pricing: "catalog"` route's prices. Throws `ConfigError`; an unknown key
 * or provider is named with the known one it likely stands for.
 */
export function parseGatewayConfig(input: unknown, options: ParseGatewayConfigOptions = {}): GatewayConfig {
  const result = gatewayConfigSchema.safeParse(input, { error: describeUnknownKeys(options.hostSections) });
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map(issue => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`),
    );
  }
  const { routes, problems } = resolveCatalogPricing(result.data.routes, options.priceCatalog ?? SHIPPED_PRICE_CATALOG);
  if (problems.length > 0) throw new ConfigError(problems);
  const config: GatewayConfig = { ...result.data, routes };
  if (options.codecs) checkConfigProtocols(config, options.codecs);
  return config;
}
