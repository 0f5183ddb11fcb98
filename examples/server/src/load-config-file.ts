import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { Codec } from '@signalbox/core';
import { ConfigError, parseGatewayConfig, type GatewayConfig, type PriceCatalog } from '@signalbox/engine';
import { EMBEDDED_SIMULATOR } from './default-config';
import { describeConfigSyntaxError } from './describe-config-syntax-error';
import { loadYAML } from './load-on-demand';
import { readConfigFileAlerts, type ConfigFileAlerts } from './read-config-file-alerts';
import { readConfigFileStorage, type ConfigFileStorage } from './read-config-file-storage';
import { readConfigFileLive, type ConfigFileLive } from './read-config-file-live';
import { readConfigFileTracing, type ConfigFileTracing } from './read-config-file-tracing';
import { readConfigFileMetrics, type ConfigFileMetrics } from './read-metrics-settings';
import { readConfigFilePanel, type ConfigFilePanel } from './read-config-file-panel';
import { ConfigFileError } from './start-up-error';

/**
 * Reads, parses and validates a JSON or YAML config file (by extension; `.yaml`/`.yml` are YAML),
 * replacing the `embedded:simulator` base URL marker with the embedded simulator's address.
 * Every failure is a `ConfigFileError` naming the file and, in one line, the problem: a missing
 * file, a syntax error with its line and column, or the config paths at fault
 * (`routes.0.targets.0.upstream: unknown upstream 'x'`, `upstreams.x: unknown field baseUrl (did
 * you mean baseURL?)`, a protocol or interface none of `codecs` speaks). The `storage`, `tracing`,
 * `metrics`, `panel` and `alerts` sections are the example server's (`loadConfigFileWithSections`): they are checked
 * here too, then left out of the gateway config, as is `config` (where the live config lives).
 */
export function loadConfigFile(path: string, simulatorURL: string, codecs?: readonly Codec[]): GatewayConfig {
  return loadConfigFileWithSections(path, simulatorURL, codecs).config;
}

/** The example server's own top-level sections of a config file; the rest is the gateway's config. */
export const SERVER_SECTIONS = ['storage', 'tracing', 'metrics', 'panel', 'alerts', 'config'];

/** A config file's gateway config and the example server's own sections, validated. */
export type LoadedConfigFile = {
  config: GatewayConfig;
  /** The gateway config as the file writes it (`embedded:simulator` kept, no defaults): what seeds the store's first config version. */
  input: Record<string, unknown>;
  storage: ConfigFileStorage | undefined;
  tracing: ConfigFileTracing | undefined;
  metrics: ConfigFileMetrics | undefined;
  /** Where the routes, upstreams and prices live (`config.source`), and whether secrets may be stored sealed (`config.secrets`). */
  live: ConfigFileLive | undefined;
  panel: ConfigFilePanel | undefined;
  alerts: ConfigFileAlerts | undefined;
};

/** `loadConfigFile`, keeping the `storage`, `tracing`, `metrics`, `panel` and `alerts` sections it validated: one read of the file for all; `pricing: "catalog"` routes priced from `priceCatalog` (default the shipped one). */
export function loadConfigFileWithSections(path: string, simulatorURL: string, codecs?: readonly Codec[], priceCatalog?: PriceCatalog): LoadedConfigFile {
  const { storage, tracing, metrics, panel, alerts, config: live, gateway } = splitServerSections(readConfigDocument(path));
  const sections = {
    storage: readConfigFileStorage(path, storage),
    tracing: readConfigFileTracing(path, tracing),
    metrics: readConfigFileMetrics(path, metrics),
    live: readConfigFileLive(path, live),
    panel: readConfigFilePanel(path, panel),
    alerts: readConfigFileAlerts(path, alerts),
  };
  try {
    const config = parseGatewayConfig(substituteSimulator(gateway, simulatorURL), {
      hostSections: SERVER_SECTIONS,
      ...(codecs && { codecs }),
      ...(priceCatalog && { priceCatalog }),
    });
    return { config, input: isRecord(gateway) ? gateway : {}, ...sections };
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigFileError(path, error.problems.join('; '), { cause: error });
    throw error;
  }
}

/** The config file's `storage` section, validated; `undefined` when the file has none. */
export function loadConfigFileStorage(path: string): ConfigFileStorage | undefined {
  return readConfigFileStorage(path, splitServerSections(readConfigDocument(path)).storage);
}

function readConfigDocument(path: string): unknown {
  const format = ['.yaml', '.yml'].includes(extname(path).toLowerCase()) ? 'YAML' : 'JSON';
  return parseText(path, readText(path), format);
}

/** The example server's `storage`, `tracing`, `metrics`, `panel`, `alerts` and `config` sections apart from the rest, which is the gateway's config. */
function splitServerSections(document: unknown): { storage: unknown; tracing: unknown; metrics: unknown; panel: unknown; alerts: unknown; config: unknown; gateway: unknown } {
  if (!isRecord(document)) return { storage: undefined, tracing: undefined, metrics: undefined, panel: undefined, alerts: undefined, config: undefined, gateway: document };
  const { storage, tracing, metrics, panel, alerts, config, ...gateway } = document;
  return { storage, tracing, metrics, panel, alerts, config, gateway };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const detail =
      code === 'ENOENT' ? `no such file (looked for ${resolve(path)})`
      : code === 'EISDIR' ? 'is a folder; name a .json, .yaml or .yml file'
      : code === 'EACCES' ? 'cannot be read (permission denied)'
      : (error as Error).message;
    throw new ConfigFileError(path, detail, { cause: error });
  }
}

function parseText(path: string, text: string, format: 'YAML' | 'JSON'): unknown {
  try {
    return format === 'YAML' ? loadYAML().parse(text) : JSON.parse(text);
  } catch (error) {
    throw new ConfigFileError(path, describeConfigSyntaxError(error, format, text), { cause: error });
  }
}

/** `value` with every `embedded:simulator` marker replaced by the embedded simulator's address. */
export function substituteSimulator(value: unknown, simulatorURL: string): unknown {
  if (typeof value === 'string') return value.replace(EMBEDDED_SIMULATOR, simulatorURL);
  if (Array.isArray(value)) return value.map(item => substituteSimulator(item, simulatorURL));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteSimulator(item, simulatorURL)]));
  }
  return value;
}
