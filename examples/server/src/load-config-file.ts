import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYAML } from 'yaml';
import { EMBEDDED_SIMULATOR } from './default-config';

/**
 * Reads a JSON or YAML config file (by extension; `.yaml`/`.yml` are YAML) and replaces the
 * `embedded:simulator` base URL marker with the embedded simulator's address. Validation is the
 * gateway's (`parseGatewayConfig`), so its errors name the bad path.
 */
export function loadConfigFile(path: string, simulatorURL: string): unknown {
  const text = readFileSync(path, 'utf8');
  const extension = extname(path).toLowerCase();
  const raw: unknown = extension === '.yaml' || extension === '.yml' ? parseYAML(text) : JSON.parse(text);
  return substituteSimulator(raw, simulatorURL);
}

function substituteSimulator(value: unknown, simulatorURL: string): unknown {
  if (typeof value === 'string') return value.replace(EMBEDDED_SIMULATOR, simulatorURL);
  if (Array.isArray(value)) return value.map(item => substituteSimulator(item, simulatorURL));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteSimulator(item, simulatorURL)]));
  }
  return value;
}
