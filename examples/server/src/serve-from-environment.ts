import { chooseSharedStorage } from './choose-shared-storage';
import { createLogger } from './create-logger';
import type { StartUpSettings } from './describe-start-up-error';
import { describeStorageChoice } from './describe-storage-choice';
import { formatBanner, formatFirstStartSecrets } from './format-banner';
import { loadConfigFileStorage } from './load-config-file';
import { priceCatalogFileIn } from './read-price-catalog-file';
import { readServerEnvironment } from './read-server-environment';
import { startExampleServer } from './start-example-server';

/**
 * Starts the example server from the environment (PORT, HOST, SIGNALBOX_CONFIG,
 * SIGNALBOX_DEMO_KEY, SIGNALBOX_DATA_DIR, SIGNALBOX_ADMIN_TOKEN, SIGNALBOX_SHUTDOWN_GRACE_MS,
 * LOG_LEVEL, SIGNALBOX_METRICS(_PORT, _HOST); for several instances SIGNALBOX_DATABASE_URL,
 * SIGNALBOX_REDIS_URL, SIGNALBOX_SERVER_SECRET, SIGNALBOX_ADMIN_TOKEN_SHA256 and the bounds, or the
 * config file's storage section, see docs/deploy.md), prints its banner, and stops it gracefully on
 * SIGINT or SIGTERM. The settings it read go into `settings`, for a start-up error's message.
 */
export async function serveFromEnvironment(settings: StartUpSettings): Promise<void> {
  const environment = readServerEnvironment(process.env);
  Object.assign(settings, environment);
  const logger = createLogger({ level: environment.logLevel });
  // Handlers go in before anything is announced: a signal that arrives first must not kill the process outright.
  const running: { server?: Awaited<ReturnType<typeof startExampleServer>> } = {};
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const graceMs = environment.shutdownGraceMs;
    logger.info({ signal, graceMs }, 'shutting down: new requests get 503 SHUTTING_DOWN; open ones get the grace, then their terminal error event');
    void (running.server?.close(graceMs) ?? Promise.resolve()).then(() => {
      logger.flush();
      process.exit(0);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // The environment's variables win over the config file's storage section, field by field.
  const { configPath } = environment;
  const shared = chooseSharedStorage(process.env, configPath ? { path: configPath, storage: loadConfigFileStorage(configPath) } : undefined);
  const storageLine = describeStorageChoice(shared, environment.dataDirectory);
  logger.info({ storage: { database: shared.sources.database ?? 'none: the data folder', redis: shared.sources.redis ?? 'none: process memory' } }, storageLine);
  const server = await startExampleServer({
    port: environment.port,
    host: environment.host,
    ...(configPath && { configPath }),
    priceCatalogPath: priceCatalogFileIn(environment.dataDirectory),
    ...(environment.demoKey && { demoKey: environment.demoKey }),
    // Secrets are made once the server listens, and go to stderr, never to stdout with the JSON logs,
    // at once: a start that fails after making one still shows it.
    onSecretsCreated: secrets => process.stderr.write(formatFirstStartSecrets(secrets)),
    storage: shared.database
      ? { kind: 'postgres', ...shared.database, source: shared.sources.database! }
      : { kind: 'data-directory', path: environment.dataDirectory },
    limiter: shared.redis ? { kind: 'redis', ...shared.redis, source: shared.sources.redis! } : { kind: 'memory' },
    ...(environment.trustProxy !== undefined && { trustProxy: environment.trustProxy }),
    metrics: environment.metrics,
    logger,
  });
  running.server = server;
  process.stdout.write(formatBanner({ ...server, routes: server.gateway.engine.routes, storage: storageLine }));
}
