import { digestAdminToken } from '@switchyard/accounts';
import { StartUpError } from './start-up-error';

/**
 * Where several instances keep their shared state, from the environment: a PostgreSQL database for
 * keys, accounts, balances, the ledger and conversations, and a Redis server for the limits.
 * Neither set: the data folder (SQLite) and process memory, as for a single instance.
 */
export type SharedStorageEnvironment = {
  /** `SWITCHYARD_DATABASE_URL`: selects the PostgreSQL store. */
  database?: {
    url: string;
    /** `SWITCHYARD_SERVER_SECRET`, required here: every instance must digest keys and seal items alike. */
    serverSecret: string;
    /** The console (admin) tokens' SHA-256 digests, from `SWITCHYARD_ADMIN_TOKEN_SHA256` or `SWITCHYARD_ADMIN_TOKEN`. */
    adminTokenDigests: string[];
    /** `SWITCHYARD_HOLD_SWEEP_INTERVAL_MS`: how often each instance beats and frees dead instances' holds. */
    holdSweepIntervalMs?: number;
    /** `SWITCHYARD_HOLD_OWNER_TIMEOUT_MS`: an instance silent this long is taken for dead. */
    holdOwnerTimeoutMs?: number;
  };
  /** `SWITCHYARD_REDIS_URL`: selects the Redis limiter. */
  redis?: {
    url: string;
    /** `SWITCHYARD_LIMITER_LEASE_MS`: a dead instance's concurrency slots return within this. */
    leaseMs?: number;
  };
};

/** What to generate a secret with, in the messages. */
const SECRET_HINT = 'generate one with `openssl rand -hex 32` and give every instance the same value';

/**
 * Reads `SWITCHYARD_DATABASE_URL`, `SWITCHYARD_REDIS_URL`, `SWITCHYARD_SERVER_SECRET`,
 * `SWITCHYARD_ADMIN_TOKEN` / `SWITCHYARD_ADMIN_TOKEN_SHA256` and the bound overrides. A bad value is a
 * `StartUpError` naming the variable and the shape it needs; a URL or secret is never echoed (a URL
 * may carry a password).
 */
export function readSharedStorageEnvironment(environment: NodeJS.ProcessEnv): SharedStorageEnvironment {
  const databaseURL = readURL(environment, 'SWITCHYARD_DATABASE_URL', ['postgres:', 'postgresql:'], 'postgres://USER:PASSWORD@HOST:5432/DATABASE');
  const redisURL = readURL(environment, 'SWITCHYARD_REDIS_URL', ['redis:', 'rediss:'], 'redis://[:PASSWORD@]HOST:6379[/DB] (rediss:// for TLS)');
  const leaseMs = readMilliseconds(environment, 'SWITCHYARD_LIMITER_LEASE_MS');
  return {
    ...(databaseURL !== undefined && { database: readDatabase(environment, databaseURL) }),
    ...(redisURL !== undefined && { redis: { url: redisURL, ...(leaseMs !== undefined && { leaseMs }) } }),
  };
}

function readDatabase(environment: NodeJS.ProcessEnv, url: string): NonNullable<SharedStorageEnvironment['database']> {
  const serverSecret = environment.SWITCHYARD_SERVER_SECRET ?? '';
  if (serverSecret.length < 32) {
    throw new StartUpError(
      `SWITCHYARD_SERVER_SECRET: required with SWITCHYARD_DATABASE_URL, at least 32 characters (${serverSecret === '' ? 'it is not set' : `the value given has ${serverSecret.length}`}): every instance must digest API keys and seal compaction items with the same secret; ${SECRET_HINT}`,
    );
  }
  const holdSweepIntervalMs = readMilliseconds(environment, 'SWITCHYARD_HOLD_SWEEP_INTERVAL_MS');
  const holdOwnerTimeoutMs = readMilliseconds(environment, 'SWITCHYARD_HOLD_OWNER_TIMEOUT_MS');
  return {
    url,
    serverSecret,
    adminTokenDigests: readAdminTokenDigests(environment),
    ...(holdSweepIntervalMs !== undefined && { holdSweepIntervalMs }),
    ...(holdOwnerTimeoutMs !== undefined && { holdOwnerTimeoutMs }),
  };
}

/**
 * The console tokens every instance accepts: their SHA-256 digests (`SWITCHYARD_ADMIN_TOKEN_SHA256`,
 * comma-separated, so a rotation adds the new digest before it drops the old one, and the token
 * itself need not be in the instances' environment), or one token (`SWITCHYARD_ADMIN_TOKEN`).
 * Neither: no admin token, only the account console tokens kept in the database.
 */
function readAdminTokenDigests(environment: NodeJS.ProcessEnv): string[] {
  const digests = environment.SWITCHYARD_ADMIN_TOKEN_SHA256?.trim();
  if (digests) {
    const list = digests.split(',').map(digest => digest.trim());
    if (!list.every(digest => /^[0-9a-fA-F]{64}$/.test(digest))) {
      throw new StartUpError(
        'SWITCHYARD_ADMIN_TOKEN_SHA256: must be the 64 hexadecimal digits of the console token\'s SHA-256 digest (`printf %s "$TOKEN" | sha256sum`), or several separated by commas',
      );
    }
    return list.map(digest => digest.toLowerCase());
  }
  const token = environment.SWITCHYARD_ADMIN_TOKEN;
  return token ? [digestAdminToken(token)] : [];
}

function readURL(environment: NodeJS.ProcessEnv, name: string, protocols: readonly string[], shape: string): string | undefined {
  const value = environment[name]?.trim();
  if (!value) return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== undefined && protocols.includes(protocol)) return value;
  throw new StartUpError(`${name}: must be a URL of the shape ${shape} (the value given is not shown, as it may hold a password); unset it to use ${name === 'SWITCHYARD_DATABASE_URL' ? 'the data folder (SQLite)' : 'limits kept in process memory'}`);
}

function readMilliseconds(environment: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = environment[name]?.trim();
  if (!value) return undefined;
  if (/^\d{1,9}$/.test(value) && Number(value) > 0) return Number(value);
  throw new StartUpError(`${name}=${value}: must be a whole number of milliseconds above 0; unset it for the default`);
}
