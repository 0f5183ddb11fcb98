import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createAdminService, DEFAULT_USAGE_RETENTION_DAYS, type AccountStore, type AdminService } from '@signalbox/accounts';
import { GatewayError } from '@signalbox/core';
import { CliError, PROGRAM, type CliCommand, type CliContext } from './cli-command';
import { CLI_COMMANDS } from './cli-commands';
import { loadPostgresStoreOpener, loadRouteModelsReader, loadSQLiteStore } from './load-on-demand';
import { openDataDirectory } from './open-data-directory';
import { parseCliArguments } from './parse-cli-arguments';
import type { FileRouteModels } from './read-route-models';
import { readSharedStorageEnvironment } from './read-shared-storage-environment';

export type RunCliOptions = {
  /** SIGNALBOX_DATA_DIR, default `data`. */
  dataDirectory: string;
  environment?: NodeJS.ProcessEnv;
  /** Where results and help go. Default `process.stdout`. */
  write?: (text: string) => void;
  /** Where the one-line error goes. Default `process.stderr`. */
  writeError?: (text: string) => void;
};

/**
 * Runs one management command (`keys create --account ID --name N`, see `--help`) against the data
 * folder and prints its result. Returns the exit code: 0 on success or help, 2 for a mistake on the
 * command line, 1 when the command failed. Every error is one line naming what to fix; no stack.
 */
export async function runCli(argv: readonly string[], options: RunCliOptions): Promise<number> {
  const write = options.write ?? (text => process.stdout.write(text));
  const writeError = options.writeError ?? (text => process.stderr.write(text));
  let command: CliCommand | undefined;
  const session = openSession(options, writeError);
  try {
    const request = parseCliArguments(argv, CLI_COMMANDS);
    if (request.kind === 'help') {
      write(`${request.text}\n`);
      return 0;
    }
    command = request.command;
    write(`${await command.run(request.input, session.context)}\n`);
    return 0;
  } catch (error) {
    writeError(`${describeCliError(error, command)}\n`);
    return error instanceof CliError && error.kind === 'usage' ? 2 : 1;
  } finally {
    await session.close();
  }
}

/**
 * The data folder and its store, opened only when a command needs them; with
 * `SIGNALBOX_DATABASE_URL` the commands work on the PostgreSQL database every instance shares
 * instead (no sweep timer: the command's store only reads and writes, then closes).
 */
function openSession(options: RunCliOptions, writeError: (text: string) => void): { context: CliContext; close(): Promise<void> } {
  const environment = options.environment ?? process.env;
  let store: AccountStore | undefined;
  let admin: AdminService | undefined;
  let routeModels: readonly string[] | undefined;
  const dataDirectory = () => {
    const path = resolve(options.dataDirectory);
    if (existsSync(path)) return path;
    throw new CliError(
      `SIGNALBOX_DATA_DIR=${options.dataDirectory}: no data folder at ${path}; start the server once (${PROGRAM}) to create it, or point SIGNALBOX_DATA_DIR at the server's folder`,
      'failure',
    );
  };
  return {
    context: {
      environment,
      dataDirectory,
      revealSecret: (heading, secret) => writeError(`${heading} (shown once; only its digest is kept):\n  ${secret}\n`),
      async routeModels() {
        if (routeModels) return routeModels;
        const file = readRouteModels(environment.SIGNALBOX_CONFIG || undefined, options.dataDirectory);
        if (file.source === 'store') await this.admin();
        routeModels = (file.source === 'store' ? await storedRouteModels(store) : undefined) ?? file.models;
        return routeModels;
      },
      async admin() {
        if (admin) return admin;
        const database = readSharedStorageEnvironment(environment).database;
        if (database) {
          store = await loadPostgresStoreOpener()({ ...database, usageRetentionDays: DEFAULT_USAGE_RETENTION_DAYS, holdSweepIntervalMs: 0, balanceLeaseMicros: 0 });
          admin = createAdminService({ store, adminTokenDigests: [] });
          return admin;
        }
        const directory = openDataDirectory(dataDirectory(), environment);
        store = loadSQLiteStore().createSQLiteAccountStore({ path: directory.databasePath, serverSecret: directory.serverSecret });
        // The CLI works on the store directly; console tokens are the admin API's concern.
        admin = createAdminService({ store, adminTokenDigests: [] });
        return admin;
      },
    },
    close: async () => {
      await store?.close();
    },
  };
}

/** The routes' model IDs of the config version in force in the store; `undefined` before a server has seeded one. */
async function storedRouteModels(store: AccountStore | undefined): Promise<string[] | undefined> {
  const versions = store?.configVersions;
  const latest = versions ? await versions.latestConfigVersion() : 0;
  if (!versions || latest === 0) return undefined;
  const routes = (await versions.getConfigVersion(latest))?.document['routes'];
  return Array.isArray(routes) ? routes.map(route => String((route as { model?: unknown }).model)) : [];
}

/** The routes' model IDs and source of the config file, or a `CliError` saying why the file cannot tell them. */
function readRouteModels(configPath: string | undefined, dataDirectory: string): FileRouteModels {
  try {
    return loadRouteModelsReader()(configPath, existsSync(dataDirectory) ? resolve(dataDirectory) : undefined);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`--models cannot be checked against the server's routes: ${message.replace(/\s*\n\s*/g, ' ').trim()}`, 'failure');
  }
}

/** One line: the command's name, then what went wrong in the user's terms (flags, not field names). */
function describeCliError(error: unknown, command: CliCommand | undefined): string {
  const prefix = command ? `${command.name}: ` : '';
  if (error instanceof CliError) return prefix + error.message;
  if (error instanceof GatewayError) {
    if (error.code === 'RESOURCE_NOT_FOUND' && command?.notFound) return prefix + command.notFound;
    const issue = error.issues[0];
    if (issue && command) {
      const name = command.fields?.[issue.path.split('.')[0]!] ?? issue.path;
      return `${prefix}${name}: ${issue.message}${error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : ''}`;
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return prefix + message.replace(/\s*\n\s*/g, ' ').trim();
}
