#!/usr/bin/env node
import { createLogger } from './create-logger';
import { describeStartUpError, type StartUpSettings } from './describe-start-up-error';
import { formatBanner, formatFirstStartSecrets } from './format-banner';
import { readServerEnvironment } from './read-server-environment';
import { runCli } from './run-cli';
import { startExampleServer } from './start-example-server';

const settings: StartUpSettings = {};

/**
 * Starts the example server from the environment (PORT, HOST, SWITCHYARD_CONFIG,
 * SWITCHYARD_DEMO_KEY, SWITCHYARD_DATA_DIR, SWITCHYARD_ADMIN_TOKEN, SWITCHYARD_SHUTDOWN_GRACE_MS,
 * LOG_LEVEL; for several instances SWITCHYARD_DATABASE_URL, SWITCHYARD_REDIS_URL,
 * SWITCHYARD_SERVER_SECRET, SWITCHYARD_ADMIN_TOKEN_SHA256 and the bounds, see docs/deploy.md), or runs a
 * management command (`keys create …`, see `--help`).
 */
async function main(argv: string[]): Promise<void> {
  if (argv.length > 0) {
    process.exitCode = await runCli(argv, { dataDirectory: process.env.SWITCHYARD_DATA_DIR || 'data' });
    return;
  }
  const environment = readServerEnvironment(process.env);
  Object.assign(settings, environment);
  const logger = createLogger();
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
  const server = await startExampleServer({
    port: environment.port,
    host: environment.host,
    ...(environment.configPath && { configPath: environment.configPath }),
    ...(environment.demoKey && { demoKey: environment.demoKey }),
    storage: environment.sharedStorage.database
      ? { kind: 'postgres', ...environment.sharedStorage.database }
      : { kind: 'data-directory', path: environment.dataDirectory },
    ...(environment.trustProxy !== undefined && { trustProxy: environment.trustProxy }),
    ...(environment.sharedStorage.redis && { limiter: { kind: 'redis', ...environment.sharedStorage.redis } }),
    logger,
  });
  running.server = server;
  // Secrets created on this start go to stderr, never to stdout with the JSON logs.
  process.stderr.write(formatFirstStartSecrets(server));
  process.stdout.write(formatBanner(server));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const verbose = ['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '');
  process.stderr.write(`${describeStartUpError(error, settings, verbose)}\n`);
  process.exit(1);
});
