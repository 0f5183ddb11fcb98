import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePriceCatalog, type PriceCatalog } from '@signalbox/engine';
import { PROGRAM } from './cli-command';
import { StartUpError } from './start-up-error';
import { writePrivateFile } from './write-private-file';

/** The imported price catalog's name in the data folder. */
export const PRICE_CATALOG_FILE = 'price-catalog.json';

/** Where `catalog import` puts an operator's price catalog, which the server then prefers to the shipped one. */
export function priceCatalogFileIn(dataDirectory: string): string {
  return join(dataDirectory, PRICE_CATALOG_FILE);
}

/**
 * The price catalog in `path`, validated; `undefined` when there is no such file (the shipped
 * catalog applies). A file that cannot be read, is not JSON or is not a catalog throws an `Error`
 * whose message says what is wrong, one line, naming no more than the file's own paths.
 */
export function readPriceCatalogFile(path: string): PriceCatalog | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot be read: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = parsePriceCatalog(value);
  if ('problems' in parsed) throw new Error(`is not a price catalog: ${parsed.problems.join('; ')}`);
  return parsed.catalog;
}

/**
 * Validates the catalog in `source` and installs it in the data folder (written whole, then renamed
 * over the old one). Returns what it installed, for the command's output.
 */
export function importPriceCatalog(source: string, dataDirectory: string): { installed: string; catalog: PriceCatalog } {
  const catalog = readPriceCatalogFile(source);
  if (catalog === undefined) throw new Error('no such file');
  const installed = priceCatalogFileIn(dataDirectory);
  writePrivateFile(installed, JSON.stringify(catalog, null, 2));
  return { installed, catalog };
}

/** The imported price catalog at `path`, if there is one; a bad one stops the start, naming the file and the fix. */
export function readImportedPriceCatalog(path: string | undefined): PriceCatalog | undefined {
  if (path === undefined) return undefined;
  try {
    return readPriceCatalogFile(path);
  } catch (error) {
    const fix = `import a valid one with '${PROGRAM} catalog import FILE', or delete it to use the shipped catalog`;
    throw new StartUpError(`${path}: ${(error as Error).message}; ${fix}`, { cause: error });
  }
}
