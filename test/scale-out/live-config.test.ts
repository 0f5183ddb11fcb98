import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAdminToken, generateApiKey, type AccountStore } from '@signalbox/accounts';
import { createSimulator, type Simulator } from '@signalbox/simulator';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { createDefaultConfig } from '../../examples/server/src/default-config';
import { createTestDatabase, type TestDatabase } from '../helpers/start-postgres';
import { startInstanceProcess, type InstanceProcess } from './start-instance-process';

/** Requests running over both instances while the route is added. */
const REQUESTS = 200;
const WORKERS = 20;

type ConfigDocument = { upstreams: Record<string, unknown>; routes: Record<string, unknown>[] };

/**
 * Two example-server processes sharing one PostgreSQL: the routes live in its config versions. A
 * route added through one instance's admin API is served by both within a second (PostgreSQL's
 * NOTIFY), with no restart and no failed request among those running meanwhile.
 */
describe('live config on two gateway instances sharing PostgreSQL', () => {
  let postgres: TestDatabase;
  let simulator: Simulator;
  let store: AccountStore;
  let folder: string;
  let instances: InstanceProcess[] = [];
  const adminToken = generateAdminToken();
  const serverSecret = randomBytes(32).toString('hex');

  beforeAll(async () => {
    postgres = await createTestDatabase();
    simulator = createSimulator();
    const { url: simulatorURL } = await simulator.listen(0, '127.0.0.1');
    folder = mkdtempSync(join(tmpdir(), 'signalbox-live-config-'));
    const configPath = join(folder, 'config.json');
    writeFileSync(configPath, JSON.stringify(createDefaultConfig(simulatorURL)));
    store = await createPostgresAccountStore({ connectionString: postgres.url, serverSecret, holdSweepIntervalMs: 0 });
    const environment = {
      SIGNALBOX_DATABASE_URL: postgres.url,
      SIGNALBOX_SERVER_SECRET: serverSecret,
      SIGNALBOX_ADMIN_TOKEN: adminToken,
      SIGNALBOX_CONFIG: configPath,
      SIGNALBOX_DATA_DIR: join(folder, 'unused-data'),
    };
    // Both start on an empty database at once: both migrate, one seeds version 1 from the file.
    instances = await Promise.all([startInstanceProcess(environment), startInstanceProcess(environment)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map(instance => instance.stop()));
    await store?.close();
    await simulator?.close();
    await postgres?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const admin = (instance: InstanceProcess, path: string, init: RequestInit = {}) =>
    fetch(`${instance.url}/admin${path}`, {
      ...init,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json', ...init.headers },
    });

  async function generate(instance: InstanceProcess, key: string, model: string): Promise<number> {
    const response = await fetch(`${instance.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, input: 'hello', max_output_tokens: 16 }),
    });
    await response.arrayBuffer();
    return response.status;
  }

  async function fundedKey(): Promise<string> {
    const account = await store.createAccount({ name: 'live config', balanceMicros: 1_000_000_000 });
    const key = generateApiKey();
    await store.createKey({ accountId: account.id, name: 'live config', secret: key, limits: { concurrency: 1_000 } });
    return key;
  }

  async function listsModel(instance: InstanceProcess, key: string, model: string): Promise<boolean> {
    const response = await fetch(`${instance.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as { data: { id: string }[] };
    return body.data.some(listed => listed.id === model);
  }

  /**
   * Asks `instance` for its models until it lists `model` (a real program: no clock of ours to move);
   * resolves with when the first ask that saw it was sent (the instance applied the change before
   * answering it, at most one models round trip later).
   */
  async function firstListed(instance: InstanceProcess, key: string, model: string): Promise<number> {
    const giveUp = Date.now() + 10_000;
    for (;;) {
      const askedAt = Date.now();
      if (await listsModel(instance, key, model)) return askedAt;
      if (Date.now() > giveUp) throw new Error(`${instance.url} never listed ${model}:\n${instance.output()}`);
    }
  }

  it('seeded version 1 from the file once, written by config-file', async () => {
    const page = (await (await admin(instances[1]!, '/config/versions')).json()) as { data: { version: number; author: string }[] };
    expect(page.data).toEqual([expect.objectContaining({ version: 1, author: 'config-file', restoredFrom: null })]);
  });

  it(`serves a route added through one instance's admin API on both within 1 s, with none of ${REQUESTS} running requests failing`, async () => {
    const key = await fundedKey();
    const current = (await (await admin(instances[0]!, '/config')).json()) as { version: number; document: ConfigDocument };
    const added = { model: 'live-added', interfaces: ['responses', 'chat'], targets: [{ upstream: 'simulator-responses', model: 'sim-1' }], pricing: { inputPerMillion: 1, outputPerMillion: 2 } };
    expect(await generate(instances[1]!, key, 'live-added')).toBe(404);

    let sent = 0;
    const statuses: number[] = [];
    const worker = async (index: number) => {
      while (sent < REQUESTS) {
        sent += 1;
        statuses.push(await generate(instances[index % 2]!, key, 'sim-via-responses'));
      }
    };
    const running = Promise.all(Array.from({ length: WORKERS }, (_, index) => worker(index)));
    while (statuses.length < WORKERS) await new Promise(resolve => setImmediate(resolve));

    const change = await admin(instances[0]!, '/config/versions', {
      method: 'POST',
      body: JSON.stringify({ document: { ...current.document, routes: [...current.document.routes, added] }, baseVersion: current.version }),
    });
    const changedAt = Date.now();
    expect(change.status).toBe(201);
    expect(await change.json()).toMatchObject({ version: current.version + 1, author: 'admin-token', diff: [{ path: `routes.${current.document.routes.length}`, kind: 'added' }] });
    const listed = await Promise.all(instances.map(instance => firstListed(instance, key, 'live-added')));
    await running;

    for (const at of listed) expect(at - changedAt).toBeLessThan(1_000);
    for (const instance of instances) expect(await generate(instance, key, 'live-added')).toBe(200);
    expect(statuses).toHaveLength(REQUESTS);
    expect(statuses.filter(status => status !== 200)).toEqual([]);
  });

  it('refuses a bad change whole in the admin envelope, naming each path, and both instances keep serving', async () => {
    const current = (await (await admin(instances[1]!, '/config')).json()) as { version: number; document: ConfigDocument };
    const broken = { ...current.document, routes: [...current.document.routes, { model: 'broken', interfaces: ['responses'], targets: [{ upstream: 'nowhere', model: 'x' }] }] };
    const response = await admin(instances[1]!, '/config/versions', { method: 'POST', body: JSON.stringify({ document: broken }) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string; param: string }; request_id?: string };
    expect(body.error).toMatchObject({ code: 'invalid_request', param: `document.routes.${current.document.routes.length}.targets.0.upstream` });
    expect(body.error.message).toContain(`routes.${current.document.routes.length}.targets.0.upstream: unknown upstream 'nowhere'`);
    const after = (await (await admin(instances[0]!, '/config')).json()) as { version: number };
    expect(after.version).toBe(current.version);
  });
});
