import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey, type AccountStore } from '@signalbox/accounts';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { Redis } from 'ioredis';
import { createDefaultConfig } from '../../examples/server/src/default-config';
import { describeStartUpError } from '../../examples/server/src/describe-start-up-error';
import { startExampleServer } from '../../examples/server/src/start-example-server';
import { createTestDatabase, type TestDatabase } from '../helpers/start-postgres';
import { startRedis, type TestRedis } from '../helpers/start-redis';
import { findFreePort, waitUntil } from '../helpers/throwaway-process';
import { sendHello } from './send-hello';
import { runUntilExit, startInstanceProcess, type InstanceProcess } from './start-instance-process';

/**
 * The example server started with only SIGNALBOX_CONFIG: the config file's `storage` section
 * chooses PostgreSQL and Redis, the database URL and the server secret coming from the variables it
 * names. Real throwaway servers, the built server in its own process.
 */
describe('example server choosing PostgreSQL and Redis from its config file', () => {
  let postgres: TestDatabase;
  let redis: TestRedis;
  let folder: string;
  let configPath: string;
  let instance: InstanceProcess | undefined;
  const serverSecret = randomBytes(32).toString('hex');

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([createTestDatabase(), startRedis()]);
    folder = mkdtempSync(join(tmpdir(), 'signalbox-config-storage-'));
    configPath = join(folder, 'gateway.json');
    const storage = {
      // Balance leases off: every hold is a row of its own, settled with its request.
      database: { urlEnv: 'GATEWAY_DATABASE_URL', serverSecretEnv: 'GATEWAY_SECRET', holdSweepIntervalMs: 1_000, connectTimeoutMs: 1_000, balanceLeaseMicros: 0 },
      redis: { url: redis.url, leaseMs: 5_000, commandTimeoutMs: 1_000 },
    };
    writeFileSync(configPath, JSON.stringify({ storage, ...createDefaultConfig('embedded:simulator') }));
  }, 60_000);

  afterAll(async () => {
    await instance?.stop();
    await Promise.all([postgres?.stop(), redis?.stop()]);
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('keeps keys, balances and the ledger in PostgreSQL and the limits and conversation pins in Redis, and says which setting chose them', async () => {
    const demoKey = generateApiKey();
    instance = await startInstanceProcess({
      SIGNALBOX_CONFIG: configPath,
      GATEWAY_DATABASE_URL: postgres.url,
      GATEWAY_SECRET: serverSecret,
      SIGNALBOX_DEMO_KEY: demoKey,
      // A data folder that must stay unused: with a database chosen, nothing is written here.
      SIGNALBOX_DATA_DIR: join(folder, 'unused-data'),
    });
    expect(instance.output()).toContain(`Storage: PostgreSQL (chosen by ${configPath} storage.database); limits: Redis (chosen by ${configPath} storage.redis)`);
    expect(instance.output()).not.toContain('postgres://');

    const answer = await sendHello(instance.url, demoKey, 'responses');
    expect(answer.status).toBe(200);
    expect(await (await fetch(`${instance.url}/readyz`)).json()).toEqual({ status: 'ready', checks: { store: 'ok', limiter: 'ok' } });

    const store: AccountStore = await createPostgresAccountStore({ connectionString: postgres.url, serverSecret, holdSweepIntervalMs: 0 });
    const client = new Redis(redis.url, { lazyConnect: true });
    try {
      const key = await store.findKeyBySecret(demoKey);
      expect(key).toMatchObject({ name: 'demo', status: 'active' });
      // The ledger row is committed off the response path, in the other process: poll for it.
      const rows = async () => (await store.listUsage({ accountId: key!.accountId }, { limit: 5 })).entries;
      await waitUntil(async () => (await rows()).length > 0, { what: () => 'the ledger row', exited: () => instance!.exited() });
      expect(await rows()).toEqual([expect.objectContaining({ status: 200, model: 'signalbox-sim', protocol: 'openai-responses', costMicros: expect.any(Number) })]);
      // With the file's balanceLeaseMicros 0 nothing stays held once the request is charged (a lease would keep its slice).
      expect((await store.getAccount(key!.accountId))!.reservedMicros).toBe(0);
      // The instance holds two connections to this Redis besides the test's own: the limiter's (its
      // commands, upstream health's and session affinity's), and its subscription to the upstream health other instances share.
      await client.connect();
      const connections = (await client.client('LIST')) as string;
      expect(connections.trim().split('\n')).toHaveLength(3);
      expect(await client.pubsub('NUMSUB', 'signalbox:health:marks')).toEqual(['signalbox:health:marks', 1]);
      // The route has two targets, so the conversation is pinned, in Redis, to the one that served it, for the idle hour.
      const [pinKey, ...otherPins] = await client.keys('signalbox:affinity:*');
      expect(otherPins).toEqual([]);
      expect(pinKey).toMatch(/^signalbox:affinity:[A-Za-z0-9_-]{22}$/);
      expect(await client.get(pinKey!)).toBe('["simulator-messages","default"]');
      expect(await client.pttl(pinKey!)).toBeGreaterThan(3_540_000);
    } finally {
      client.disconnect();
      await store.close();
    }
  }, 60_000);

  it('names the file\'s field, never the URL, when the database it chooses cannot be reached at start', async () => {
    const path = join(folder, 'unreachable.json');
    const password = randomBytes(8).toString('hex');
    const storage = { database: { url: `postgres://signalbox@127.0.0.1:${await findFreePort()}/postgres`, passwordEnv: 'GATEWAY_DATABASE_PASSWORD' } };
    writeFileSync(path, JSON.stringify({ storage, ...createDefaultConfig('embedded:simulator') }));
    const environment = { SIGNALBOX_SERVER_SECRET: serverSecret, GATEWAY_DATABASE_PASSWORD: password };
    const error = await startExampleServer({ port: 0, configPath: path, environment }).then(
      () => new Error('started'),
      (failure: unknown) => failure,
    );
    const line = describeStartUpError(error);
    expect(line).toMatch(new RegExp(`^${escapeRegExp(path)} storage\\.database: cannot open the PostgreSQL database \\(.*ECONNREFUSED.*\\); check that it is running`));
    expect(line).not.toContain(password);
  });

  it('refuses to start when a variable the file names is unset: exit 1 and one line naming the file, the field and the variable', () => {
    const result = runUntilExit({ SIGNALBOX_CONFIG: configPath, GATEWAY_SECRET: serverSecret });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`SIGNALBOX_CONFIG=${configPath}: storage.database.urlEnv: the environment variable GATEWAY_DATABASE_URL is not set\n`);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
