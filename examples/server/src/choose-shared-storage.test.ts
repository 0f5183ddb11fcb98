import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as stringifyYAML } from 'yaml';
import { chooseSharedStorage } from './choose-shared-storage';
import { createDefaultConfig } from './default-config';
import { describeStorageChoice } from './describe-storage-choice';
import { loadConfigFile, loadConfigFileStorage } from './load-config-file';
import { readConfigFileStorage, type ConfigFileStorage } from './read-config-file-storage';
import { ConfigFileError, StartUpError } from './start-up-error';

/** Built at run time: no secret or password is written in the test's source. */
const secret = randomBytes(32).toString('hex');
const otherSecret = randomBytes(32).toString('hex');
const password = randomBytes(12).toString('hex');
const PATH = 'gateway.yaml';

function errorOf(run: () => unknown): StartUpError {
  try {
    run();
  } catch (error) {
    if (error instanceof StartUpError) return error;
    throw error;
  }
  throw new Error('no StartUpError was thrown');
}

const fromFile = (storage: ConfigFileStorage) => ({ path: PATH, storage });

describe('readConfigFileStorage', () => {
  it('accepts a database and a Redis section with URLs inline or by variable, and the bounds', () => {
    const section = {
      database: { url: 'postgres://signalbox@db.internal:5432/signalbox', passwordEnv: 'DB_PASSWORD', serverSecretEnv: 'GATEWAY_SECRET', holdSweepIntervalMs: 5_000, holdOwnerTimeoutMs: 15_000, connectTimeoutMs: 1_000, queryTimeoutMs: 5_000 },
      redis: { urlEnv: 'REDIS_URL', leaseMs: 10_000, commandTimeoutMs: 500 },
    };
    expect(readConfigFileStorage(PATH, section)).toEqual(section);
    expect(readConfigFileStorage(PATH, undefined)).toBeUndefined();
    expect(readConfigFileStorage(PATH, {})).toEqual({});
  });

  it('refuses a URL carrying a password, in one line naming the file and the field and never showing the password', () => {
    const error = errorOf(() => readConfigFileStorage(PATH, { database: { url: `postgres://signalbox:${password}@db.internal/signalbox` } }));
    expect(error).toBeInstanceOf(ConfigFileError);
    expect(error.message).toBe(
      'gateway.yaml: storage.database.url: must not carry a password (the value is not shown): name the variable holding the password with passwordEnv, or give the whole URL by urlEnv',
    );
    expect(errorOf(() => readConfigFileStorage(PATH, { redis: { url: `redis://:${password}@cache.internal:6379` } })).message).toMatch(
      /^gateway\.yaml: storage\.redis\.url: must not carry a password/,
    );
  });

  it('refuses a URL of another kind, both or neither of url and urlEnv, a bad variable name, a bad bound and an unknown field, all in one line', () => {
    const error = errorOf(() =>
      readConfigFileStorage(PATH, {
        database: { url: 'mysql://db.internal/signalbox', holdSweepIntervalMs: 0 },
        redis: { leaseMs: 1.5, urlEnv: 'not a name' },
        cache: {},
      }),
    );
    expect(error.message).toBe(
      'gateway.yaml: ' +
        [
          'storage.database.url: must be a URL of the shape postgres://USER@HOST:5432/DATABASE',
          'storage.database.holdSweepIntervalMs: must be above 0',
          'storage.redis.urlEnv: must be the name of an environment variable, such as SIGNALBOX_DATABASE_URL',
          'storage.redis.leaseMs: must be a whole number of milliseconds',
          'storage: unknown field cache',
        ].join('; '),
    );
    expect(errorOf(() => readConfigFileStorage(PATH, { redis: { leaseMs: 100 } })).message).toBe(
      'gateway.yaml: storage.redis: give either url (without a password) or urlEnv (the name of the variable holding the URL), not both and not neither',
    );
    expect(errorOf(() => readConfigFileStorage(PATH, { database: { url: 'postgres://db/x', urlEnv: 'DATABASE_URL' } })).message).toMatch(/^gateway\.yaml: storage\.database: give either url/);
    expect(errorOf(() => readConfigFileStorage(PATH, 'postgres')).message).toBe('gateway.yaml: storage: must be an object');
  });
});

describe('chooseSharedStorage', () => {
  it('chooses neither without a variable or a storage section, and the environment alone as before', () => {
    expect(chooseSharedStorage({})).toEqual({ sources: {} });
    expect(chooseSharedStorage({}, fromFile({}))).toEqual({ sources: {} });
    expect(chooseSharedStorage({ SIGNALBOX_REDIS_URL: 'redis://127.0.0.1:6379' })).toEqual({
      redis: { url: 'redis://127.0.0.1:6379' },
      sources: { redis: 'SIGNALBOX_REDIS_URL' },
    });
  });

  it('takes the file\'s database and Redis, reading the URL, password and server secret from the variables it names', () => {
    const choice = chooseSharedStorage(
      { DATABASE_URL: 'postgres://signalbox@db.internal:5432/signalbox', DB_PASSWORD: password, GATEWAY_SECRET: secret },
      fromFile({
        database: { urlEnv: 'DATABASE_URL', passwordEnv: 'DB_PASSWORD', serverSecretEnv: 'GATEWAY_SECRET', holdSweepIntervalMs: 5_000, queryTimeoutMs: 4_000 },
        redis: { url: 'redis://cache.internal:6379/2', leaseMs: 10_000, commandTimeoutMs: 500 },
      }),
    );
    expect(choice).toEqual({
      database: {
        url: `postgres://signalbox:${password}@db.internal:5432/signalbox`,
        serverSecret: secret,
        adminTokenDigests: [],
        holdSweepIntervalMs: 5_000,
        queryTimeoutMs: 4_000,
      },
      redis: { url: 'redis://cache.internal:6379/2', leaseMs: 10_000, commandTimeoutMs: 500 },
      sources: { database: 'gateway.yaml storage.database', redis: 'gateway.yaml storage.redis' },
    });
  });

  it('takes the balance lease slice from the file (0 turns leases off), SIGNALBOX_BALANCE_LEASE_MICROS winning, and refuses a negative or fractional one', () => {
    const file = (balanceLeaseMicros: number) => fromFile({ database: { url: 'postgres://signalbox@db.internal/signalbox', balanceLeaseMicros } });
    expect(chooseSharedStorage({ SIGNALBOX_SERVER_SECRET: secret }, file(0)).database).toMatchObject({ balanceLeaseMicros: 0 });
    expect(chooseSharedStorage({ SIGNALBOX_SERVER_SECRET: secret, SIGNALBOX_BALANCE_LEASE_MICROS: '250000' }, file(0)).database).toMatchObject({ balanceLeaseMicros: 250_000 });
    for (const balanceLeaseMicros of [-1, 0.5]) {
      expect(() => readConfigFileStorage(PATH, { database: { url: 'postgres://signalbox@db.internal/signalbox', balanceLeaseMicros } })).toThrow(/storage\.database\.balanceLeaseMicros/);
    }
  });

  it('takes how long an unused balance lease is kept from the file, SIGNALBOX_BALANCE_LEASE_IDLE_MS winning, and refuses 0 or a fraction', () => {
    const file = (balanceLeaseIdleMs: number) => fromFile({ database: { url: 'postgres://signalbox@db.internal/signalbox', balanceLeaseIdleMs } });
    expect(chooseSharedStorage({ SIGNALBOX_SERVER_SECRET: secret }, file(30_000)).database).toMatchObject({ balanceLeaseIdleMs: 30_000 });
    expect(chooseSharedStorage({ SIGNALBOX_SERVER_SECRET: secret, SIGNALBOX_BALANCE_LEASE_IDLE_MS: '2000' }, file(30_000)).database).toMatchObject({ balanceLeaseIdleMs: 2_000 });
    for (const balanceLeaseIdleMs of [0, 0.5]) {
      expect(() => readConfigFileStorage(PATH, { database: { url: 'postgres://signalbox@db.internal/signalbox', balanceLeaseIdleMs } })).toThrow(/storage\.database\.balanceLeaseIdleMs/);
    }
  });

  it('lets each variable that is set win over the file: the URLs, the server secret and every bound', () => {
    const environment = {
      SIGNALBOX_DATABASE_URL: 'postgres://override@db2.internal/signalbox',
      SIGNALBOX_SERVER_SECRET: otherSecret,
      SIGNALBOX_HOLD_SWEEP_INTERVAL_MS: '700',
      SIGNALBOX_REDIS_COMMAND_TIMEOUT_MS: '250',
      GATEWAY_SECRET: secret,
    };
    const file = fromFile({
      database: { url: 'postgres://signalbox@db.internal/signalbox', serverSecretEnv: 'GATEWAY_SECRET', holdSweepIntervalMs: 5_000, holdOwnerTimeoutMs: 15_000 },
      redis: { url: 'redis://cache.internal:6379', commandTimeoutMs: 500, leaseMs: 9_000 },
    });
    expect(chooseSharedStorage(environment, file)).toEqual({
      database: { url: 'postgres://override@db2.internal/signalbox', serverSecret: otherSecret, adminTokenDigests: [], holdSweepIntervalMs: 700, holdOwnerTimeoutMs: 15_000 },
      redis: { url: 'redis://cache.internal:6379', commandTimeoutMs: 250, leaseMs: 9_000 },
      sources: { database: 'SIGNALBOX_DATABASE_URL', redis: 'gateway.yaml storage.redis' },
    });
    // The file chooses the database; SIGNALBOX_SERVER_SECRET, being set, still wins over the variable the file names.
    const { SIGNALBOX_DATABASE_URL: _url, ...withoutURL } = environment;
    expect(chooseSharedStorage(withoutURL, file).database).toMatchObject({ url: 'postgres://signalbox@db.internal/signalbox', serverSecret: otherSecret, holdSweepIntervalMs: 700 });
  });

  it('refuses an unset variable the file names, a variable holding another kind of URL, and a password given twice, never showing a value', () => {
    const database = { urlEnv: 'DATABASE_URL', serverSecretEnv: 'GATEWAY_SECRET' };
    expect(errorOf(() => chooseSharedStorage({ GATEWAY_SECRET: secret }, fromFile({ database }))).message).toBe(
      'gateway.yaml: storage.database.urlEnv: the environment variable DATABASE_URL is not set',
    );
    const wrongKind = errorOf(() => chooseSharedStorage({ GATEWAY_SECRET: secret, DATABASE_URL: `mysql://root:${password}@db/x` }, fromFile({ database })));
    expect(wrongKind.message).toBe(
      'gateway.yaml: storage.database.urlEnv: the variable DATABASE_URL must hold a URL of the shape postgres://USER@HOST:5432/DATABASE (the value is not shown, as it may hold a password)',
    );
    const twice = errorOf(() =>
      chooseSharedStorage({ GATEWAY_SECRET: secret, DB_PASSWORD: password, DATABASE_URL: `postgres://u:${password}@db/x` }, fromFile({ database: { ...database, passwordEnv: 'DB_PASSWORD' } })),
    );
    expect(twice.message).toBe('gateway.yaml: storage.database.passwordEnv: the URL in DATABASE_URL carries a password already; give the password in one place only');
    expect(errorOf(() => chooseSharedStorage({}, fromFile({ redis: { url: 'redis://cache:6379', passwordEnv: 'REDIS_PASSWORD' } }))).message).toBe(
      'gateway.yaml: storage.redis.passwordEnv: the environment variable REDIS_PASSWORD is not set',
    );
    expect(`${wrongKind.message}${twice.message}`).not.toContain(password);
  });

  it('requires the server secret with a database chosen by the file, naming the variable and the file', () => {
    const file = fromFile({ database: { url: 'postgres://signalbox@db.internal/signalbox', serverSecretEnv: 'GATEWAY_SECRET' } });
    expect(errorOf(() => chooseSharedStorage({}, file)).message).toMatch(/^GATEWAY_SECRET: required with gateway\.yaml storage\.database, at least 32 characters \(it is not set\)/);
    expect(errorOf(() => chooseSharedStorage({}, fromFile({ database: { url: 'postgres://db/x' } }))).message).toMatch(/^SIGNALBOX_SERVER_SECRET: required with gateway\.yaml storage\.database/);
  });

  it('is described in one line naming what chose each, never a URL', () => {
    const choice = chooseSharedStorage({ SIGNALBOX_DATABASE_URL: `postgres://u:${password}@db/x`, SIGNALBOX_SERVER_SECRET: secret }, fromFile({ redis: { url: 'redis://cache:6379' } }));
    const line = describeStorageChoice(choice, 'data');
    expect(line).toBe('Storage: PostgreSQL (chosen by SIGNALBOX_DATABASE_URL); limits: Redis (chosen by gateway.yaml storage.redis)');
    expect(describeStorageChoice(chooseSharedStorage({}), 'data')).toBe('Storage: the data folder data (SQLite); limits: process memory (this instance only)');
  });
});

describe('the storage section in a config file', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'signalbox-config-storage-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('is read from YAML and left out of the gateway config, which stays strict', () => {
    const path = join(folder, 'gateway.yaml');
    writeFileSync(path, stringifyYAML({ storage: { redis: { urlEnv: 'REDIS_URL', leaseMs: 5_000 } }, ...createDefaultConfig('embedded:simulator') }));
    expect(loadConfigFileStorage(path)).toEqual({ redis: { urlEnv: 'REDIS_URL', leaseMs: 5_000 } });
    expect(loadConfigFile(path, 'http://127.0.0.1:1')).not.toHaveProperty('storage');
    const bad = join(folder, 'bad.json');
    writeFileSync(bad, JSON.stringify({ storage: { database: { url: `postgres://u:${password}@db/x` } }, ...createDefaultConfig('embedded:simulator') }));
    expect(errorOf(() => loadConfigFile(bad, 'http://127.0.0.1:1')).message).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: storage\\.database\\.url: must not carry a password`));
  });
});
