#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- a management command must not load the server's modules, nor the server the CLI's */
import { describeStartUpError, type StartUpSettings } from './describe-start-up-error';
import type * as CliModule from './run-cli';
import type * as ServerModule from './serve-from-environment';

const settings: StartUpSettings = {};

/**
 * Runs a management command (`keys create …`, see `--help`) when given arguments, else starts the
 * example server from the environment (`serveFromEnvironment`). Each branch loads only its own
 * modules, so a command answers without loading Express, the engine and the codecs.
 */
async function main(argv: string[]): Promise<void> {
  if (argv.length > 0) {
    const { runCli } = require('./run-cli') as typeof CliModule;
    process.exitCode = await runCli(argv, { dataDirectory: process.env.SIGNALBOX_DATA_DIR || 'data' });
    return;
  }
  const { serveFromEnvironment } = require('./serve-from-environment') as typeof ServerModule;
  await serveFromEnvironment(settings);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const verbose = ['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '');
  process.stderr.write(`${describeStartUpError(error, settings, verbose)}\n`);
  process.exit(1);
});
