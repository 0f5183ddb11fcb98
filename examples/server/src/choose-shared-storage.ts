import type { ConfigFileStorage } from './read-config-file-storage';
import {
  readAdminTokenDigests,
  readDatabaseBounds,
  readRedisBounds,
  readServerSecret,
  readSharedStorageEnvironment,
  type SharedStorageEnvironment,
} from './read-shared-storage-environment';
import { ConfigFileError } from './start-up-error';

/** The shared storage chosen, and which setting chose each part, for the start-up log. */
export type SharedStorageChoice = SharedStorageEnvironment & {
  /** The variable or config file field that chose the database and Redis (never a URL). */
  sources: { database?: string; redis?: string };
};

/** A config file's storage section with the file it came from, for the messages. */
export type ConfigFileStorageSource = { path: string; storage: ConfigFileStorage | undefined };

const DATABASE = { protocols: ['postgres:', 'postgresql:'], shape: 'postgres://USER@HOST:5432/DATABASE' } as const;
const REDIS = { protocols: ['redis:', 'rediss:'], shape: 'redis://HOST:6379[/DB] (rediss:// for TLS)' } as const;

/**
 * Where several instances keep their shared state: the environment (`SIGNALBOX_DATABASE_URL`,
 * `SIGNALBOX_REDIS_URL`, the bounds' variables) over the config file's `storage` section, field by
 * field: a variable that is set wins, the file fills in the rest. The file names secrets only by
 * their variables (`urlEnv`, `passwordEnv`, `serverSecretEnv`); they are read from `environment`.
 * Neither selects a database nor Redis: an empty choice (the data folder and process memory).
 */
export function chooseSharedStorage(environment: NodeJS.ProcessEnv, file?: ConfigFileStorageSource): SharedStorageChoice {
  const fromEnvironment = readSharedStorageEnvironment(environment);
  const database = chooseDatabase(environment, fromEnvironment.database, file);
  const redis = chooseRedis(environment, fromEnvironment.redis, file);
  return {
    ...(database && { database: database.settings }),
    ...(redis && { redis: redis.settings }),
    sources: { ...(database && { database: database.source }), ...(redis && { redis: redis.source }) },
  };
}

function chooseDatabase(
  environment: NodeJS.ProcessEnv,
  fromEnvironment: SharedStorageEnvironment['database'],
  file: ConfigFileStorageSource | undefined,
): { settings: NonNullable<SharedStorageEnvironment['database']>; source: string } | undefined {
  const section = file?.storage?.database;
  const { url: _url, urlEnv: _urlEnv, passwordEnv: _passwordEnv, serverSecretEnv, ...fileBounds } = section ?? {};
  if (fromEnvironment) return { settings: { ...fileBounds, ...fromEnvironment }, source: 'SIGNALBOX_DATABASE_URL' };
  if (!section || !file) return undefined;
  const source = `${file.path} storage.database`;
  const secretVariable = environment.SIGNALBOX_SERVER_SECRET ? 'SIGNALBOX_SERVER_SECRET' : (serverSecretEnv ?? 'SIGNALBOX_SERVER_SECRET');
  return {
    settings: {
      url: resolveURL(environment, file.path, 'database', section, DATABASE),
      serverSecret: readServerSecret(environment, secretVariable, source),
      adminTokenDigests: readAdminTokenDigests(environment),
      ...fileBounds,
      ...readDatabaseBounds(environment),
    },
    source,
  };
}

function chooseRedis(
  environment: NodeJS.ProcessEnv,
  fromEnvironment: SharedStorageEnvironment['redis'],
  file: ConfigFileStorageSource | undefined,
): { settings: NonNullable<SharedStorageEnvironment['redis']>; source: string } | undefined {
  const section = file?.storage?.redis;
  const { url: _url, urlEnv: _urlEnv, passwordEnv: _passwordEnv, ...fileBounds } = section ?? {};
  if (fromEnvironment) return { settings: { ...fileBounds, ...fromEnvironment }, source: 'SIGNALBOX_REDIS_URL' };
  if (!section || !file) return undefined;
  return {
    settings: { url: resolveURL(environment, file.path, 'redis', section, REDIS), ...fileBounds, ...readRedisBounds(environment) },
    source: `${file.path} storage.redis`,
  };
}

/**
 * The connection URL a section names: `url` as written (checked to carry no password) or the value
 * of the variable `urlEnv`, with the password of the variable `passwordEnv` put in when given.
 * A variable that is unset or holds no such URL is a `ConfigFileError` naming the field and the
 * variable, never showing a value.
 */
function resolveURL(
  environment: NodeJS.ProcessEnv,
  path: string,
  name: 'database' | 'redis',
  section: { url?: string | undefined; urlEnv?: string | undefined; passwordEnv?: string | undefined },
  kind: { protocols: readonly string[]; shape: string },
): string {
  const field = `storage.${name}`;
  const text = section.url ?? readVariable(environment, path, `${field}.urlEnv`, section.urlEnv!);
  const url = URL.parse(text);
  if (url === null || !kind.protocols.includes(url.protocol)) {
    throw new ConfigFileError(path, `${field}.urlEnv: the variable ${section.urlEnv} must hold a URL of the shape ${kind.shape} (the value is not shown, as it may hold a password)`);
  }
  if (section.passwordEnv === undefined) return text;
  if (url.password !== '') {
    throw new ConfigFileError(path, `${field}.passwordEnv: the URL in ${section.urlEnv} carries a password already; give the password in one place only`);
  }
  url.password = readVariable(environment, path, `${field}.passwordEnv`, section.passwordEnv);
  return url.toString();
}

function readVariable(environment: NodeJS.ProcessEnv, path: string, field: string, variable: string): string {
  const value = environment[variable]?.trim();
  if (value) return value;
  throw new ConfigFileError(path, `${field}: the environment variable ${variable} is not set`);
}
