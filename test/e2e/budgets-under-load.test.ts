import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey, type AccountStore } from '@signalbox/accounts';
import { systemClock } from '@signalbox/engine';
import { createSimulator } from '@signalbox/simulator';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { startExampleServer, type ExampleServer, type ExampleServerOptions } from '../../examples/server/src';
import { readAllUsageRows } from '../helpers/read-all-usage-rows';
import { createTestDatabase, type TestDatabase } from '../helpers/start-postgres';

/** Requests at once against a key whose daily budget runs out long before they do. */
const CONCURRENT_REQUESTS = 2_000;

/**
 * The 2,000 requests are all sent at once, over 256 keep-alive connections: one process opening
 * 2,000 sockets to a server in its own event loop overflows the listen backlog. The server is
 * shown to serve all 256 at once: the upstream answers none until 256 are waiting at it.
 */
const CONNECTIONS = 256;

type Answer = { status: number; code?: string; retryAfter: string | null };

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** One request; `through` is the batch's connections unless told otherwise (`false`: a connection of its own). */
async function post(url: string, key: string, through: Agent | false = agent): Promise<Answer> {
  const body = JSON.stringify({ model: 'sim-gated', input: 'price me', max_output_tokens: 16 });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const sent = request(`${url}/v1/responses`, {
      method: 'POST',
      agent: through,
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
 * An upstream that can hold requests back: once closed, it keeps every request waiting until `open`
 * lets them (and every later one) through. `largestBatch` is the most it let through at once.
 */
type Gate = {
  handler: RequestListener;
  close(): void;
  /** Resolves once `count` requests wait at the closed gate. */
  whenWaiting(count: number): Promise<void>;
  open(): void;
  largestBatch(): number;
};

function createGate(forward: RequestListener): Gate {
  let closed = false;
  let waiting: Array<() => void> = [];
  let watch: { count: number; resolve: () => void } | undefined;
  let largest = 0;
  return {
    handler(incoming, outgoing) {
      if (!closed) return void forward(incoming, outgoing);
      waiting.push(() => forward(incoming, outgoing));
      if (watch && waiting.length >= watch.count) watch.resolve();
    },
    close() {
      closed = true;
    },
    whenWaiting(count) {
      return new Promise(resolve => (watch = { count, resolve }));
    },
    open() {
      closed = false;
      const batch = waiting;
      waiting = [];
      largest = Math.max(largest, batch.length);
      batch.forEach(release => release());
    },
    largestBatch: () => largest,
  };
}

/** The route's upstream is the gated simulator; prices as the embedded demo routes'. */
function writeConfig(folder: string, upstreamURL: string): string {
  const path = join(folder, 'gateway.json');
  const route = { model: 'sim-gated', interfaces: ['responses'], targets: [{ upstream: 'gated', model: 'sim-1' }], pricing: { inputPerMillion: 0.5, outputPerMillion: 1.5 } };
  writeFileSync(path, JSON.stringify({ upstreams: { gated: { protocol: 'openai-responses', baseURL: `${upstreamURL}/v1` } }, routes: [route] }));
  return path;
}

/** What one request holds while it runs and what it is then charged, measured on an account of its own. */
async function measureRequest(server: ExampleServer, gate: Gate): Promise<{ holdMicros: number; costMicros: number }> {
  const { store, url } = server;
  const account = await store.createAccount({ name: 'calibration', balanceMicros: 1_000_000_000 });
  const { secret } = await store.createKey({ accountId: account.id, name: 'calibration' });
  gate.close();
  const arrived = gate.whenWaiting(1);
  // On a connection of its own, closed after: the batch then starts on fresh connections, none the server may be closing as idle.
  const answer = post(url, secret, false);
  await arrived;
  const holdMicros = (await store.getAccount(account.id))!.reservedMicros;
  gate.open();
  expect((await answer).status).toBe(200);
  return { holdMicros, costMicros: await readCost(store, account.id) };
}

/** The charge of an account's one request, once its ledger row is written (a batch commits it a few turns later). */
async function readCost(store: AccountStore, accountId: string): Promise<number> {
  for (let turn = 0; turn < 200; turn += 1) {
    const costMicros = (await readAllUsageRows(store, accountId, 1_000))[0]?.costMicros ?? 0;
    if (costMicros > 0) return costMicros;
    await new Promise(resolve => setImmediate(resolve));
  }
  return 0;
}

/**
 * A key's daily budget with room for 256 requests in flight and then a few dozen more, on an account
 * whose balance covers thousands, under 2,000 concurrent requests through the example server: on its
 * data folder (SQLite, holds in the server's memory) and on a real PostgreSQL. The server holds 256
 * requests at the upstream at once (the key's concurrency limit and the upstream's connections let
 * them all through); the period's charges never pass the budget, to the micro-unit; every refusal is
 * a 429 `BUDGET_EXCEEDED` in the Responses envelope with `Retry-After` at most a day, and the
 * ledger's charges are exactly what the budget counted.
 */
describe('budgets under 2,000 concurrent requests', () => {
  let folder: string;
  let postgres: TestDatabase | undefined;
  let server: ExampleServer | undefined;
  let upstream: Server;
  let gate: Gate;
  let configPath: string;
  const quiet = { ...systemClock, sleep: async (_ms: number, signal?: AbortSignal) => signal?.throwIfAborted() };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'signalbox-budgets-'));
    gate = createGate(createSimulator().handler);
    upstream = createServer(gate.handler);
    await new Promise<void>(resolve => upstream.listen(0, '127.0.0.1', resolve));
    configPath = writeConfig(folder, `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    postgres = await createTestDatabase();
  }, 60_000);
  afterEach(async () => {
    await server?.close(5_000);
    server = undefined;
  });
  afterAll(async () => {
    agent.destroy();
    upstream.closeAllConnections();
    await new Promise(resolve => upstream.close(resolve));
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
  const start = async (storage: ExampleServerOptions['storage'], demoKey?: string) =>
    startExampleServer({ port: 0, host: '127.0.0.1', configPath, storage, ...(demoKey && { demoKey }), environment: {}, clock: quiet });

  it.each(storages)('on %s: 256 requests run at once, the budget is never exceeded and every refusal is 429 BUDGET_EXCEEDED', async (_name, storage) => {
    server = await start(await storage(), generateApiKey());
    const { store, url } = server;
    const { holdMicros, costMicros } = await measureRequest(server, gate);
    expect(costMicros).toBeGreaterThan(0);
    expect(holdMicros).toBeGreaterThanOrEqual(costMicros);

    const limitMicros = CONNECTIONS * holdMicros + 50 * costMicros;
    const account = await store.createAccount({ name: 'budgeted', balanceMicros: 1_000_000_000 });
    const { key, secret } = await store.createKey({ accountId: account.id, name: 'budgeted', limits: { concurrency: CONCURRENT_REQUESTS, queueSize: 0 } });
    await store.setBudget({ accountId: account.id, keyId: key.id, period: 'day', limitMicros });
    // The gate opens when 256 wait at it; should any answer come back first, it opens then, and the batch says so.
    gate.close();
    void gate.whenWaiting(CONNECTIONS).then(gate.open);
    const answers = await Promise.all(Array.from({ length: CONCURRENT_REQUESTS }, () => post(url, secret).finally(gate.open)));
    expect(gate.largestBatch()).toBe(CONNECTIONS);

    const served = answers.filter(answer => answer.status === 200).length;
    const refused = answers.filter(answer => answer.status === 429 && answer.code === 'BUDGET_EXCEEDED');
    expect(served + refused.length).toBe(CONCURRENT_REQUESTS);
    expect(served).toBeGreaterThanOrEqual(CONNECTIONS);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every(answer => Number(answer.retryAfter) > 0 && Number(answer.retryAfter) <= 86_400)).toBe(true);

    await server.close(5_000);
    server = undefined;
    const reopened = await start(await storage());
    server = reopened;
    const rows = await readAllUsageRows(reopened.store, account.id, 1_000);
    expect(rows).toHaveLength(CONCURRENT_REQUESTS);
    const charged = rows.reduce((sum, row) => sum + row.costMicros, 0);
    const [budget] = await reopened.store.listBudgets(account.id);
    expect(budget).toMatchObject({ keyId: key.id, limitMicros, spentMicros: charged, heldMicros: 0 });
    expect(charged).toBeLessThanOrEqual(limitMicros);
    expect(rows.filter(row => row.status === 200)).toHaveLength(served);
    expect(rows.filter(row => row.status === 429).every(row => row.errorCode === 'BUDGET_EXCEEDED' && row.costMicros === 0)).toBe(true);
    expect(await reopened.store.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000_000_000 - charged, reservedMicros: 0 });
  }, 300_000);
});
