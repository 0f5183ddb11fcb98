import { digestAdminToken } from '@signalbox/accounts';
import { StartUpError } from './start-up-error';

/**
 * Where several instances keep their shared state, from the environment: a PostgreSQL database for
 * keys, accounts, balances, the ledger and conversations, and a Redis server for the limits.
 * Neither set: the data folder (SQLite) and process memory, as for a single instance.
 */
export type SharedStorageEnvironment = {
  /** `SIGNALBOX_DATABASE_URL`: selects the PostgreSQL store. */
  database?: {
    url: string;
    /** `SIGNALBOX_SERVER_SECRET`, required here: every instance must digest keys and seal items alike. */
    serverSecret: string;
    /** The console (admin) tokens' SHA-256 digests, from `SIGNALBOX_ADMIN_TOKEN_SHA256` or `SIGNALBOX_ADMIN_TOKEN`. */
    adminTokenDigests: string[];
    /** `SIGNALBOX_HOLD_SWEEP_INTERVAL_MS`: how often each instance beats and frees dead instances' holds. */
    holdSweepIntervalMs?: number;
    /** `SIGNALBOX_HOLD_OWNER_TIMEOUT_MS`: an instance silent this long is taken for dead. */
    holdOwnerTimeoutMs?: number;
    /** `SIGNALBOX_DATABASE_CONNECT_TIMEOUT_MS`: how long a request waits for a connection before its 503. */
    connectTimeoutMs?: number;
    /** `SIGNALBOX_DATABASE_QUERY_TIMEOUT_MS`: how long a statement waits for the database's answer before its 503. */
    queryTimeoutMs?: number;
    /** `SIGNALBOX_BALANCE_LEASE_MICROS`: the largest slice of a balance an instance leases for its holds; 0 turns leases off. */
    balanceLeaseMicros?: number;
    /** `SIGNALBOX_BALANCE_LEASE_IDLE_MS`: a lease serving no hold this long is given back at the next sweep. */
    balanceLeaseIdleMs?: number;
  };
  /** `SIGNALBOX_REDIS_URL`: selects the Redis limiter. */
  redis?: {
    url: string;
    /** `SIGNALBOX_LIMITER_LEASE_MS`: a dead instance's concurrency slots return within this. */
    leaseMs?: number;
    /** `SIGNALBOX_REDIS_COMMAND_TIMEOUT_MS`: how long a limiter command waits for Redis before its 503. */
    commandTimeoutMs?: number;
  };
};

/** What to generate a secret with, in the messages. */
const SECRET_HINT = 'generate one with `openssl rand -hex 32` and give every instance the same value';

/**
 * Reads `SIGNALBOX_DATABASE_URL`, `SIGNALBOX_REDIS_URL`, `SIGNALBOX_SERVER_SECRET`,
 * `SIGNALBOX_ADMIN_TOKEN` / `SIGNALBOX_ADMIN_TOKEN_SHA256` and the bound overrides. A bad value is a
 * `StartUpError` naming the variable and the shape it needs; a URL or secret is never echoed (a URL
 * may carry a password).
 */
export function readSharedStorageEnvironment(environment: NodeJS.ProcessEnv): SharedStorageEnvironment {
  const databaseURL = readURL(environment, 'SIGNALBOX_DATABASE_URL', ['postgres:', 'postgresql:'], 'postgres://USER:PASSWORD@HOST:5432/DATABASE');
  const redisURL = readURL(environment, 'SIGNALBOX_REDIS_URL', ['redis:', 'rediss:'], 'redis://[:PASSWORD@]HOST:6379[/DB] (rediss:// for TLS)');
  return {
    ...(databaseURL !== undefined && {
      database: {
        url: databaseURL,
        serverSecret: readServerSecret(environment, 'SIGNALBOX_SERVER_SECRET', 'SIGNALBOX_DATABASE_URL'),
        adminTokenDigests: readAdminTokenDigests(environment),
        ...readDatabaseBounds(environment),
      },
    }),
    ...(redisURL !== undefined && { redis: { url: redisURL, ...readRedisBounds(environment) } }),
  };
}

/** The database's bounds set in the environment (each absent when its variable is unset). */
export function readDatabaseBounds(environment: NodeJS.ProcessEnv): DatabaseBounds {
  const leaseMicros = readMicros(environment, 'SIGNALBOX_BALANCE_LEASE_MICROS');
  return {
    ...readBounds(environment, {
      holdSweepIntervalMs: 'SIGNALBOX_HOLD_SWEEP_INTERVAL_MS',
      holdOwnerTimeoutMs: 'SIGNALBOX_HOLD_OWNER_TIMEOUT_MS',
      connectTimeoutMs: 'SIGNALBOX_DATABASE_CONNECT_TIMEOUT_MS',
      queryTimeoutMs: 'SIGNALBOX_DATABASE_QUERY_TIMEOUT_MS',
      balanceLeaseIdleMs: 'SIGNALBOX_BALANCE_LEASE_IDLE_MS',
    }),
    ...(leaseMicros !== undefined && { balanceLeaseMicros: leaseMicros }),
  };
}

/** The Redis limiter's bounds set in the environment (each absent when its variable is unset). */
export function readRedisBounds(environment: NodeJS.ProcessEnv): RedisBounds {
  return readBounds(environment, { leaseMs: 'SIGNALBOX_LIMITER_LEASE_MS', commandTimeoutMs: 'SIGNALBOX_REDIS_COMMAND_TIMEOUT_MS' });
}

export type DatabaseBounds = Partial<
  Pick<NonNullable<SharedStorageEnvironment['database']>, 'holdSweepIntervalMs' | 'holdOwnerTimeoutMs' | 'connectTimeoutMs' | 'queryTimeoutMs' | 'balanceLeaseMicros' | 'balanceLeaseIdleMs'>
>;
export type RedisBounds = Partial<Pick<NonNullable<SharedStorageEnvironment['redis']>, 'leaseMs' | 'commandTimeoutMs'>>;

function readBounds<Field extends string>(environment: NodeJS.ProcessEnv, variables: Record<Field, string>): Partial<Record<Field, number>> {
  const bounds: Partial<Record<Field, number>> = {};
  for (const [field, name] of Object.entries(variables) as [Field, string][]) {
    const value = readMilliseconds(environment, name);
    if (value !== undefined) bounds[field] = value;
  }
  return bounds;
}

/**
 * The secret every instance digests API keys and seals compaction items with, from the variable
 * `name`; `requiredBy` names the setting that chose the database, for the message.
 */
export function readServerSecret(environment: NodeJS.ProcessEnv, name: string, requiredBy: string): string {
  const serverSecret = environment[name] ?? '';
  if (serverSecret.length < 32) {
    throw new StartUpError(
      `${name}: required with ${requiredBy}, at least 32 characters (${serverSecret === '' ? 'it is not set' : `the value given has ${serverSecret.length}`}): every instance must digest API keys and seal compaction items with the same secret; ${SECRET_HINT}`,
    );
  }
  return serverSecret;
}

/**
 * The console tokens every instance accepts: their SHA-256 digests (`SIGNALBOX_ADMIN_TOKEN_SHA256`,
 * comma-separated, so a rotation adds the new digest before it drops the old one, and the token
 * itself need not be in the instances' environment), or one token (`SIGNALBOX_ADMIN_TOKEN`).
 * Neither: no admin token, only the account console tokens kept in the database.
 */
export function readAdminTokenDigests(environment: NodeJS.ProcessEnv): string[] {
  const digests = environment.SIGNALBOX_ADMIN_TOKEN_SHA256?.trim();
  if (digests) {
    const list = digests.split(',').map(digest => digest.trim());
    if (!list.every(digest => /^[0-9a-fA-F]{64}$/.test(digest))) {
      throw new StartUpError(
        'SIGNALBOX_ADMIN_TOKEN_SHA256: must be the 64 hexadecimal digits of the console token\'s SHA-256 digest (`printf %s "$TOKEN" | sha256sum`), or several separated by commas',
      );
    }
    return list.map(digest => digest.toLowerCase());
  }
  const token = environment.SIGNALBOX_ADMIN_TOKEN;
  return token ? [digestAdminToken(token)] : [];
}

function readURL(environment: NodeJS.ProcessEnv, name: string, protocols: readonly string[], shape: string): string | undefined {
  const value = environment[name]?.trim();
  if (!value) return undefined;
  const protocol = URL.parse(value)?.protocol;
  if (protocol !== undefined && protocols.includes(protocol)) return value;
  throw new StartUpError(`${name}: must be a URL of the shape ${shape} (the value given is not shown, as it may hold a password); unset it to use ${name === 'SIGNALBOX_DATABASE_URL' ? 'the data folder (SQLite)' : 'limits kept in process memory'}`);
}

function readMilliseconds(environment: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = environment[name]?.trim();
  if (!value) return undefined;
  if (/^\d{1,9}$/.test(value) && Number(value) > 0) return Number(value);
  throw new StartUpError(`${name}=${value}: must be a whole number of milliseconds above 0; unset it for the default`);
}

function readMicros(environment: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = environment[name]?.trim();
  if (!value) return undefined;
  if (/^\d{1,15}$/.test(value)) return Number(value);
  throw new StartUpError(`${name}=${value.slice(0, 40)}: must be a whole number of micro-units (1 000 000 = one unit of money), or 0 to turn balance leases off; unset it for the default`);
}
