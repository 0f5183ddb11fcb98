import type { GatewayLogger } from '@signalbox/express';
import { parseGatewayConfig, type GatewayConfig, type PriceCatalog } from '@signalbox/engine';
import type { SingleSignOnOptions } from '@signalbox/panel';
import { chooseSharedStorage } from './choose-shared-storage';
import { codecs } from './codecs';
import { createDefaultConfig } from './default-config';
import { loadConfigFileWithSections, type LoadedConfigFile } from './load-config-file';
import { loadRedisLimiterOpener, loadTracingOpener } from './load-on-demand';
import { readAlertSettings, type AlertSettings } from './open-alerts';
import type { SharedLimiter } from './open-redis-limiter';
import { openStorage, type Storage, type StoreRetention } from './open-storage';
import type { OpenedTracing } from './open-tracing';
import { resolveSingleSignOn } from './read-config-file-panel';
import type { ConfigFileStorage } from './read-config-file-storage';
import { chooseMetricsSettings, type MetricsSettings } from './read-metrics-settings';
import { readImportedPriceCatalog } from './read-price-catalog-file';
import { readTracingSettings, type TracingSettings } from './read-tracing-settings';
import { redactError } from './redact-url';
import type { ExampleServerOptions } from './start-example-server';
import { warnOfMissingUpstreamKeys } from './warn-of-missing-upstream-keys';

/** What a start reads and opens before the gateway is built: its config file, storage, shared limiter, tracing and the settings of its metrics, alerts and single sign-on. */
export type ServerResources = {
  /** The config file's sections, when a file was given. */
  file: LoadedConfigFile | undefined;
  /** The imported price catalog, when one was. */
  priceCatalog: PriceCatalog | undefined;
  storage: Storage;
  sharedLimiter: SharedLimiter | undefined;
  tracing: OpenedTracing | undefined;
  metricsSettings: MetricsSettings;
  alertSettings: AlertSettings | undefined;
  sso: SingleSignOnOptions | undefined;
};

/** Reads the config (every error, the codecs' protocol and interface names included, before the storage is opened), then opens what it names. */
export async function openServerResources(options: ExampleServerOptions, simulatorURL: string): Promise<ServerResources> {
  const priceCatalog = readImportedPriceCatalog(options.priceCatalogPath);
  const file = options.configPath ? loadConfigFileWithSections(options.configPath, simulatorURL, options.codecs ?? codecs, priceCatalog) : undefined;
  const loaded = file?.config ?? parseGatewayConfig(createDefaultConfig(simulatorURL), { codecs: options.codecs ?? codecs, ...(priceCatalog && { priceCatalog }) });
  warnOfMissingUpstreamKeys(loaded, options.environment ?? process.env, options.logger);
  const tracingSettings = options.tracing ?? readTracingSettings(options.environment ?? process.env, file?.tracing);
  const alertSettings = options.alerts === false ? undefined : (options.alerts ?? readAlertSettings(file?.alerts, options.environment ?? process.env));
  const singleSignOn = resolveSingleSignOn(file?.panel, options.environment ?? process.env);
  const chosen = withConfigFileStorage(options, file?.storage);
  const limiter = chosen.limiter?.kind === 'redis' ? await loadRedisLimiterOpener()({ ...chosen.limiter, ...(options.logger && { logger: options.logger }) }) : undefined;
  const settings = chooseMetricsSettings(file?.metrics, options.metrics ?? {});
  const opened = await closeOnFailure(limiter ? [limiter] : [], () => openStorage(chosen, storeRetention(loaded)));
  const traced: OpenedTracing | undefined = tracingSettings ? openTracingWithLogs(tracingSettings, options.logger) : undefined;
  return { file, priceCatalog, storage: opened, sharedLimiter: limiter, tracing: traced, metricsSettings: settings, alertSettings, sso: singleSignOn };
}

/** The retention the config sets for what the account store keeps. */
export function storeRetention(config: Pick<GatewayConfig, 'usage' | 'audit' | 'alertDeliveries'>): StoreRetention {
  return { usageRetentionDays: config.usage.retentionDays, auditRetentionDays: config.audit.retentionDays, alertDeliveryRetentionDays: config.alertDeliveries.retentionDays };
}

/**
 * The options with the config file's `storage` section filling in a storage or limiter the host did
 * not choose (the environment's variables over the file, as `chooseSharedStorage` decides).
 */
function withConfigFileStorage(options: ExampleServerOptions, storage: ConfigFileStorage | undefined): ExampleServerOptions {
  if (!options.configPath || !storage || (options.storage && options.limiter)) return options;
  const choice = chooseSharedStorage(options.environment ?? process.env, { path: options.configPath, storage });
  return {
    ...options,
    ...(!options.storage && choice.database && { storage: { kind: 'postgres', ...choice.database, source: choice.sources.database! } }),
    ...(!options.limiter && choice.redis && { limiter: { kind: 'redis', ...choice.redis, source: choice.sources.redis! } }),
  };
}

/**
 * Tracing to the collector at `settings.url`, said once in the log (its host and the service name)
 * and each dropped batch as a warning. Neither names the URL: it may carry credentials.
 */
function openTracingWithLogs(settings: TracingSettings, logger: GatewayLogger | undefined): OpenedTracing {
  logger?.info({ traces: { collector: new URL(settings.url).host, serviceName: settings.serviceName } }, 'tracing on: spans sent over OTLP/HTTP');
  return loadTracingOpener()(settings, error => logger?.warn({ error: redactError(error, settings.url) }, 'trace export failed: spans dropped'));
}

/** Runs a start-up step; if it throws, what was already opened (the listening simulator, a Redis client) is closed first. */
export async function closeOnFailure<T>(opened: ReadonlyArray<{ close(): Promise<unknown> }>, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await Promise.all(opened.map(resource => resource.close().catch(() => {})));
    throw error;
  }
}
