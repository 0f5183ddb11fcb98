#!/usr/bin/env node
import { ConfigError } from '@switchyard/engine';
import { createLogger } from './create-logger';
import { formatBanner } from './format-banner';
import { runCli } from './run-cli';
import { startExampleServer } from './start-example-server';

/**
 * Starts the example server from the environment (PORT, HOST, SWITCHYARD_CONFIG,
 * SWITCHYARD_DEMO_KEY, SWITCHYARD_DATA_DIR, SWITCHYARD_ADMIN_TOKEN, LOG_LEVEL), or runs a
 * management command (`keys create …`, see `--help`).
 */
async function main(argv: string[]): Promise<void> {
  const dataDirectory = process.env.SWITCHYARD_DATA_DIR ?? 'data';
  if (argv.length > 0) return runCli(argv, dataDirectory);
  const logger = createLogger();
  // Handlers go in before anything is announced: a signal that arrives first must not kill the process outright.
  const running: { server?: Awaited<ReturnType<typeof startExampleServer>> } = {};
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down; open streams get up to 10 s');
    void (running.server?.close(10_000) ?? Promise.resolve()).then(() => {
      logger.flush();
      process.exit(0);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const server = await startExampleServer({
    port: process.env.PORT ? Number(process.env.PORT) : 8080,
    host: process.env.HOST ?? '127.0.0.1',
    ...(process.env.SWITCHYARD_CONFIG && { configPath: process.env.SWITCHYARD_CONFIG }),
    ...(process.env.SWITCHYARD_DEMO_KEY && { demoKey: process.env.SWITCHYARD_DEMO_KEY }),
    storage: { kind: 'data-directory', path: dataDirectory },
    logger,
  });
  running.server = server;
  process.stdout.write(formatBanner(server));
}

main(process.argv.slice(2)).catch(error => {
  process.stderr.write(`${error instanceof ConfigError || error?.code === undefined ? error.message : String(error?.stack ?? error)}\n`);
  process.exit(1);
});
