import { existsSync } from 'node:fs';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from './default-config';
import { loadConfigFileWithSections } from './load-config-file';
import { priceCatalogFileIn, readImportedPriceCatalog } from './read-price-catalog-file';

/** Where the config's `embedded:simulator` upstreams point while it is only read: nothing is called. */
const SIMULATOR_NOT_STARTED = 'http://127.0.0.1';

/**
 * The model IDs a server started on this environment routes: those of the config file
 * `SIGNALBOX_CONFIG` (validated as the server validates it, priced from the data folder's imported
 * catalog when there is one), else the built-in routes. Throws what the server would at start.
 */
export function readRouteModels(configPath: string | undefined, dataDirectory: string | undefined): string[] {
  if (!configPath) return createDefaultConfig(EMBEDDED_SIMULATOR).routes.map(route => route.model);
  const catalogPath = dataDirectory === undefined ? undefined : priceCatalogFileIn(dataDirectory);
  const priceCatalog = catalogPath && existsSync(catalogPath) ? readImportedPriceCatalog(catalogPath) : undefined;
  return loadConfigFileWithSections(configPath, SIMULATOR_NOT_STARTED, undefined, priceCatalog).config.routes.map(route => route.model);
}
