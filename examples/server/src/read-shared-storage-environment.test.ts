import { createHash, randomBytes } from 'node:crypto';
import { readSharedStorageEnvironment } from './read-shared-storage-environment';
import { StartUpError } from './start-up-error';

/** Built at run time: no secret or password is written in the test's source. */
const secret = randomBytes(32).toString('hex');
const password = randomBytes(12).toString('hex');
const databaseURL = `postgres://signalbox:${password}@127.0.0.1:5432/signalbox`;

function errorOf(read: () => unknown): StartUpError {
  try {
    read();
  } catch (error) {
    if (error instanceof StartUpError) return error;
    throw error;
  }
  throw new Error('no StartUpError was thrown');
}

describe('readSharedStorageEnvironment', () => {
  it('selects neither PostgreSQL nor Redis when neither URL is set (the data folder and process memory)', () => {
    expect(readSharedStorageEnvironment({})).toEqual({});
    expect(readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: '', SIGNALBOX_REDIS_URL: ' ' })).toEqual({});
  });

  it('selects PostgreSQL for a postgres:// or postgresql:// URL, with the shared server secret and the admin token digest', () => {
    const token = randomBytes(16).toString('hex');
    const digest = createHash('sha256').update(token).digest('hex');
    for (const url of [databaseURL, databaseURL.replace('postgres:', 'postgresql:')]) {
      expect(readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: url, SIGNALBOX_SERVER_SECRET: secret, SIGNALBOX_ADMIN_TOKEN_SHA256: digest.toUpperCase() })).toEqual({
        database: { url, serverSecret: secret, adminTokenDigests: [digest] },
      });
    }
    expect(readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: databaseURL, SIGNALBOX_SERVER_SECRET: secret, SIGNALBOX_ADMIN_TOKEN: token }).database?.adminTokenDigests).toEqual([digest]);
    expect(readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: databaseURL, SIGNALBOX_SERVER_SECRET: secret }).database?.adminTokenDigests).toEqual([]);
  });

  it('accepts several admin token digests separated by commas, for a rotation without downtime', () => {
    const [old, next] = [randomBytes(16), randomBytes(16)].map(token => createHash('sha256').update(token.toString('hex')).digest('hex'));
    const read = readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: databaseURL, SIGNALBOX_SERVER_SECRET: secret, SIGNALBOX_ADMIN_TOKEN_SHA256: `${old}, ${next}` });
    expect(read.database?.adminTokenDigests).toEqual([old, next]);
  });

  it('selects Redis for a redis:// or rediss:// URL, with the lease override', () => {
    expect(readSharedStorageEnvironment({ SIGNALBOX_REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual({ redis: { url: 'redis://127.0.0.1:6379' } });
    expect(readSharedStorageEnvironment({ SIGNALBOX_REDIS_URL: 'rediss://127.0.0.1:6380/2', SIGNALBOX_LIMITER_LEASE_MS: '1500' })).toEqual({
      redis: { url: 'rediss://127.0.0.1:6380/2', leaseMs: 1_500 },
    });
  });

  it('takes the hold sweep interval and owner timeout in milliseconds', () => {
    const read = readSharedStorageEnvironment({
      SIGNALBOX_DATABASE_URL: databaseURL,
      SIGNALBOX_SERVER_SECRET: secret,
      SIGNALBOX_HOLD_SWEEP_INTERVAL_MS: '500',
      SIGNALBOX_HOLD_OWNER_TIMEOUT_MS: '1500',
    });
    expect(read.database).toMatchObject({ holdSweepIntervalMs: 500, holdOwnerTimeoutMs: 1_500 });
  });

  it('takes the balance lease slice in micro-units, 0 turning leases off, and refuses anything else, naming the variable', () => {
    const read = (value: string) => readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: databaseURL, SIGNALBOX_SERVER_SECRET: secret, SIGNALBOX_BALANCE_LEASE_MICROS: value }).database;
    expect(read('2000000')).toMatchObject({ balanceLeaseMicros: 2_000_000 });
    expect(read('0')).toMatchObject({ balanceLeaseMicros: 0 });
    expect(read(' ')).not.toHaveProperty('balanceLeaseMicros');
    for (const value of ['-1', '1.5', '5e6', 'lots']) {
      expect(errorOf(() => read(value)).message).toMatch(/^SIGNALBOX_BALANCE_LEASE_MICROS=\S+: must be a whole number of micro-units \(1 000 000 = one unit of money\), or 0 to turn balance leases off; unset it for the default$/);
    }
  });

  it('takes how long an unused balance lease is kept in milliseconds, refusing anything else, naming the variable', () => {
    const read = (value: string) => readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: databaseURL, SIGNALBOX_SERVER_SECRET: secret, SIGNALBOX_BALANCE_LEASE_IDLE_MS: value }).database;
    expect(read('2500')).toMatchObject({ balanceLeaseIdleMs: 2_500 });
    expect(read(' ')).not.toHaveProperty('balanceLeaseIdleMs');
    for (const value of ['0', '-1', '1.5', '10s']) {
      expect(errorOf(() => read(value)).message).toBe(`SIGNALBOX_BALANCE_LEASE_IDLE_MS=${value}: must be a whole number of milliseconds above 0; unset it for the default`);
    }
  });

  it('takes the database connect and query timeouts and the Redis command timeout in milliseconds', () => {
    const read = readSharedStorageEnvironment({
      SIGNALBOX_DATABASE_URL: databaseURL,
      SIGNALBOX_SERVER_SECRET: secret,
      SIGNALBOX_DATABASE_CONNECT_TIMEOUT_MS: '750',
      SIGNALBOX_DATABASE_QUERY_TIMEOUT_MS: '4000',
      SIGNALBOX_REDIS_URL: 'redis://127.0.0.1:6379',
      SIGNALBOX_REDIS_COMMAND_TIMEOUT_MS: '300',
    });
    expect(read).toEqual({
      database: { url: databaseURL, serverSecret: secret, adminTokenDigests: [], connectTimeoutMs: 750, queryTimeoutMs: 4_000 },
      redis: { url: 'redis://127.0.0.1:6379', commandTimeoutMs: 300 },
    });
    expect(errorOf(() => readSharedStorageEnvironment({ SIGNALBOX_REDIS_URL: 'redis://127.0.0.1', SIGNALBOX_REDIS_COMMAND_TIMEOUT_MS: '1s' })).message).toBe(
      'SIGNALBOX_REDIS_COMMAND_TIMEOUT_MS=1s: must be a whole number of milliseconds above 0; unset it for the default',
    );
  });

  it('refuses a database URL without SIGNALBOX_SERVER_SECRET, naming both variables, since instances must digest keys alike', () => {
    const error = errorOf(() => readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: databaseURL }));
    expect(error.message).toBe(
      'SIGNALBOX_SERVER_SECRET: required with SIGNALBOX_DATABASE_URL, at least 32 characters (it is not set): every instance must digest API keys and seal compaction items with the same secret; generate one with `openssl rand -hex 32` and give every instance the same value',
    );
    expect(errorOf(() => readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: databaseURL, SIGNALBOX_SERVER_SECRET: 'short' })).message).toContain('(the value given has 5)');
  });

  it('refuses a URL of another shape, naming the variable and the shape and never echoing the value', () => {
    const mysql = `mysql://root:${password}@127.0.0.1/db`;
    const database = errorOf(() => readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: mysql, SIGNALBOX_SERVER_SECRET: secret }));
    expect(database.message).toBe(
      'SIGNALBOX_DATABASE_URL: must be a URL of the shape postgres://USER:PASSWORD@HOST:5432/DATABASE (the value given is not shown, as it may hold a password); unset it to use the data folder (SQLite)',
    );
    const redis = errorOf(() => readSharedStorageEnvironment({ SIGNALBOX_REDIS_URL: `127.0.0.1:${password}` }));
    expect(redis.message).toBe(
      'SIGNALBOX_REDIS_URL: must be a URL of the shape redis://[:PASSWORD@]HOST:6379[/DB] (rediss:// for TLS) (the value given is not shown, as it may hold a password); unset it to use limits kept in process memory',
    );
    expect(`${database.message}${redis.message}`).not.toContain(password);
  });

  it('refuses an admin token digest that is not 64 hexadecimal digits, and a bound that is not a positive number', () => {
    expect(errorOf(() => readSharedStorageEnvironment({ SIGNALBOX_DATABASE_URL: databaseURL, SIGNALBOX_SERVER_SECRET: secret, SIGNALBOX_ADMIN_TOKEN_SHA256: 'abc' })).message).toMatch(
      /^SIGNALBOX_ADMIN_TOKEN_SHA256: must be the 64 hexadecimal digits/,
    );
    expect(errorOf(() => readSharedStorageEnvironment({ SIGNALBOX_REDIS_URL: 'redis://127.0.0.1', SIGNALBOX_LIMITER_LEASE_MS: '0' })).message).toBe(
      'SIGNALBOX_LIMITER_LEASE_MS=0: must be a whole number of milliseconds above 0; unset it for the default',
    );
  });
});
