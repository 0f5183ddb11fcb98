import { existsSync } from 'node:fs';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from './default-config';
import { loadConfigFileWithSections } from './load-config-file';
import { priceCatalogFileIn, readImportedPriceCatalog } from './read-price-catalog-file';

/** Where the config's `embedded:simulator` upstreams point while it is only read: nothing is called. */
const SIMULATOR_NOT_STARTED = 'http://127.0.0.1';

/** The routes' model IDs a config file (or the built-in config) gives, and whether the file is the only source (`config.source: "file"`). */
export type FileRouteModels = { models: string[]; source: 'store' | 'file' };

/**
 * The model IDs the config file `SIGNALBOX_CONFIG` routes (validated as the server validates it,
 * priced from the data folder's imported catalog when there is one), else the built-in routes.
 * Throws what the server would at start.
 */
export function readRouteModels(configPath: string | undefined, dataDirectory: string | undefined): FileRouteModels {
  if (!configPath) return { models: createDefaultConfig(EMBEDDED_SIMULATOR).routes.map(route => route.model), source: 'store' };
  const catalogPath = dataDirectory === undefined ? undefined : priceCatalogFileIn(dataDirectory);
  const priceCatalog = catalogPath && existsSync(catalogPath) ? readImportedPriceCatalog(catalogPath) : undefined;
  const loaded = loadConfigFileWithSections(configPath, SIMULATOR_NOT_STARTED, undefined, priceCatalog);
  return { models: loaded.config.routes.map(route => route.model), source: loaded.live?.source ?? 'store' };
}
