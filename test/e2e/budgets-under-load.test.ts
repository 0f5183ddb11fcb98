import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@signalbox/accounts';
import { systemClock } from '@signalbox/engine';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { startExampleServer, type ExampleServer, type ExampleServerOptions } from '../../examples/server/src';
import { readAllUsageRows } from '../helpers/read-all-usage-rows';
import { startPostgres, type TestPostgres } from '../helpers/start-postgres';

/** Requests at once against a key whose daily budget covers about 50 of them. */
const CONCURRENT_REQUESTS = 2_000;

type Answer = { status: number; code?: string; retryAfter: string | null };

/**
 * The 2,000 requests are all sent at once, over at most 256 keep-alive connections: one process
 * opening 2,000 sockets to a server in its own event loop overflows the listen backlog.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

async function post(url: string, key: string): Promise<Answer> {
  const body = JSON.stringify({ model: 'sim-via-responses', input: 'price me', max_output_tokens: 16 });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const sent = request(`${url}/v1/responses`, {
      method: 'POST',
      agent,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, resolve);
    sent.on('error', reject);
    sent.end(body);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code?: string };
  const retryAfter = response.headers['retry-after'];
  return { status: response.statusCode!, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, ...(json.code && { code: json.code }) };
}

/**
 * A key's daily budget worth about 50 requests, on an account whose balance covers thousands, under
 * 2,000 concurrent requests through the example server: on its data folder (SQLite, holds in the
 * server's memory) and on a real PostgreSQL. The period's charges never pass the budget, to the
 * micro-unit; every refusal is a 429 `BUDGET_EXCEEDED` in the Responses envelope with `Retry-After`
 * at most a day, and the ledger's charges are exactly what the budget counted.
 */
describe('budgets under 2,000 concurrent requests', () => {
  let folder: string;
  let postgres: TestPostgres | undefined;
  let server: ExampleServer | undefined;
  const quiet = { ...systemClock, sleep: async (_ms: number, signal?: AbortSignal) => signal?.throwIfAborted() };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'signalbox-budgets-'));
    postgres = await startPostgres();
  }, 60_000);
  afterEach(async () => {
    await server?.close(5_000);
    server = undefined;
  });
  afterAll(async () => {
    agent.destroy();
    await postgres?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  const storages: Array<[string, () => Promise<ExampleServerOptions['storage']>]> = [
    ['the SQLite data folder', async () => ({ kind: 'data-directory', path: join(folder, 'data') })],
    [
      'PostgreSQL',
      async () => ({
        kind: 'store',
        store: await createPostgresAccountStore({ connectionString: postgres!.url, serverSecret: 'budget-test-secret', maxConnections: 10, connectTimeoutMs: 20_000 }),
      }),
    ],
  ];

  it.each(storages)('on %s: the budget is never exceeded and every refusal is 429 BUDGET_EXCEEDED', async (_name, storage) => {
    server = await startExampleServer({ port: 0, host: '127.0.0.1', storage: await storage(), demoKey: generateApiKey(), environment: {}, clock: quiet });
    const { store, url } = server;
    const calibration = await store.createAccount({ name: 'calibration', balanceMicros: 1_000_000_000 });
    const { secret: calibrationKey } = await store.createKey({ accountId: calibration.id, name: 'calibration' });
    expect((await post(url, calibrationKey)).status).toBe(200);
    let costMicros = 0;
    for (let turn = 0; turn < 200 && costMicros === 0; turn += 1) {
      costMicros = (await readAllUsageRows(store, calibration.id, 1_000))[0]?.costMicros ?? 0;
      if (costMicros === 0) await new Promise(resolve => setImmediate(resolve));
    }
    expect(costMicros).toBeGreaterThan(0);

    const limitMicros = 50 * costMicros;
    const account = await store.createAccount({ name: 'budgeted', balanceMicros: 1_000_000_000 });
    const { key, secret } = await store.createKey({ accountId: account.id, name: 'budgeted', limits: { concurrency: CONCURRENT_REQUESTS, queueSize: 0 } });
    await store.setBudget({ accountId: account.id, keyId: key.id, period: 'day', limitMicros });
    const answers = await Promise.all(Array.from({ length: CONCURRENT_REQUESTS }, () => post(url, secret)));

    const served = answers.filter(answer => answer.status === 200).length;
    const refused = answers.filter(answer => answer.status === 429 && answer.code === 'BUDGET_EXCEEDED');
    expect(served + refused.length).toBe(CONCURRENT_REQUESTS);
    expect(served).toBeGreaterThan(0);
    expect(refused.every(answer => Number(answer.retryAfter) > 0 && Number(answer.retryAfter) <= 86_400)).toBe(true);

    await server.close(5_000);
    server = undefined;
    const reopened = await startExampleServer({ port: 0, host: '127.0.0.1', storage: await storage(), environment: {}, clock: quiet });
    server = reopened;
    const rows = await readAllUsageRows(reopened.store, account.id, 1_000);
    expect(rows).toHaveLength(CONCURRENT_REQUESTS);
    const charged = rows.reduce((sum, row) => sum + row.costMicros, 0);
    const [budget] = await reopened.store.listBudgets(account.id);
    expect(budget).toMatchObject({ keyId: key.id, limitMicros, spentMicros: charged, heldMicros: 0 });
    expect(charged).toBeLessThanOrEqual(limitMicros);
    expect(charged).toBeGreaterThan(0);
    expect(rows.filter(row => row.status === 429).every(row => row.errorCode === 'BUDGET_EXCEEDED' && row.costMicros === 0)).toBe(true);
    expect(await reopened.store.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000_000_000 - charged, reservedMicros: 0 });
  }, 120_000);
});
