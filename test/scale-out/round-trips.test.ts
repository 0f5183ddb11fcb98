import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@signalbox/accounts';
import { createSimulator } from '@signalbox/simulator';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { Redis } from 'ioredis';
import pg from 'pg';
import { startExampleServer, type ExampleServer } from '../../examples/server/src';
import { createTestDatabase, type TestDatabase } from '../helpers/start-postgres';
import { startRedis, type TestRedis } from '../helpers/start-redis';
import { waitUntil } from '../helpers/throwaway-process';

/** Every kind of key limit on, far above what the test reaches: each is counted on every request. */
const LIMITS = { requests: 1_000_000, tokens: 1_000_000_000, windowSeconds: 60, concurrency: 64, queueSize: 64, quotaTokens: 1_000_000_000, quotaPeriodHours: 24 };
/** Requests that find the key and a balance lease in place, each measured on its own. */
const MEASURED_REQUESTS = 5;

/** What one request made the gateway wait on before its upstream call: statements and Redis commands. */
type RoundTrips = { statements: string[]; redisCommands: string[] };

/**
 * The round trips a request waits on in PostgreSQL + Redis mode, counted on the real servers'
 * connections: the statements the store's pool runs (every connection the pool opens counts its
 * queries) and the commands Redis receives (`MONITOR`, without those a script runs inside itself),
 * between the request's start and its arrival at the upstream. Each request starts once the
 * previous one's ledger row is committed, so nothing of another request is counted. With the key
 * and a balance lease in place a request reads only its account's row from PostgreSQL and runs one
 * limiter script in Redis.
 */
describe('round trips of a request in PostgreSQL + Redis mode', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let folder: string;
  let upstream: Server;
  let server: ExampleServer | undefined;
  const statements: string[] = [];
  const clients: Redis[] = [];
  const pools: pg.Pool[] = [];
  /** Told when a call reaches the upstream, before it is answered. */
  let onUpstreamCall: () => Promise<void> = async () => {};

  beforeAll(async () => {
    [database, redis] = await Promise.all([createTestDatabase(), startRedis()]);
    folder = mkdtempSync(join(tmpdir(), 'signalbox-round-trips-'));
    const simulator = createSimulator();
    upstream = createServer((request, response) => void onUpstreamCall().then(() => simulator.handler(request, response)));
    await new Promise<void>(resolve => upstream.listen(0, '127.0.0.1', resolve));
    writeConfig(join(folder, 'gateway.json'), `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
  }, 60_000);
  afterAll(async () => {
    await server?.close(5_000);
    await Promise.all(pools.map(pool => pool.end()));
    clients.forEach(client => client.disconnect());
    upstream.closeAllConnections();
    await new Promise(resolve => upstream.close(resolve));
    await Promise.all([database?.stop(), redis?.stop()]);
    rmSync(folder, { recursive: true, force: true });
  });

  it('waits on one PostgreSQL statement (the account read) and one Redis script per request once the key and a lease are in place', async () => {
    const pool = countingPool(database.url, statements);
    const store = await createPostgresAccountStore({ pool, serverSecret: 'round-trips-secret', holdSweepIntervalMs: 0, balanceLeases: { sliceMicros: 1_000_000 } });
    server = await startExampleServer({
      port: 0,
      host: '127.0.0.1',
      configPath: join(folder, 'gateway.json'),
      storage: { kind: 'store', store },
      limiter: { kind: 'redis', url: redis.url },
      demoKey: generateApiKey(),
      environment: {},
    });
    const key = server.demoKey!;
    const checking = new pg.Pool({ connectionString: database.url, max: 1 });
    pools.push(checking);
    const monitor = await watchRedis(redis.url);
    const marker = new Redis(redis.url);
    clients.push(marker);

    const measure = async (index: number): Promise<RoundTrips> => {
      await marker.echo(`start-${index}`);
      const statementsBefore = statements.length;
      let atUpstream: string[] = [];
      onUpstreamCall = async () => {
        atUpstream = statements.slice(statementsBefore);
        await marker.echo(`upstream-${index}`);
      };
      const response = await fetch(`${server!.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-via-chat', messages: [{ role: 'user', content: 'count my round trips' }], max_tokens: 16 }),
      });
      expect(response.status).toBe(200);
      await response.text();
      // The next request starts once this one's ledger row (and with it its settlement) is committed.
      await waitUntil(async () => (await checking.query('SELECT count(*)::int AS n FROM usage')).rows[0].n === index, {
        what: () => `request ${index}'s ledger row`,
        exited: () => false,
      });
      return { statements: atUpstream, redisCommands: await monitor.between(`start-${index}`, `upstream-${index}`) };
    };

    // The first requests read the key and the account, and lease a slice of the balance.
    const first = await measure(1);
    expect(first.statements.length).toBeGreaterThan(0);
    await measure(2);
    const measured: RoundTrips[] = [];
    for (let index = 3; index < 3 + MEASURED_REQUESTS; index++) measured.push(await measure(index));
    // The account's row is read at authentication (its status and limits change with every write); nothing else.
    expect(measured).toEqual(Array.from({ length: MEASURED_REQUESTS }, () => ({ statements: [expect.stringMatching(/^SELECT /)], redisCommands: ['evalsha'] })));
    await monitor.close();
  }, 60_000);

  /** A pool whose every connection records the statements it runs (their first words). */
  function countingPool(url: string, into: string[]): pg.Pool {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('connect', client => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const [text] = args;
        into.push(String(typeof text === 'string' ? text : (text as { text: string }).text).trim().slice(0, 60));
        return query(...args);
      };
    });
    pools.push(pool);
    return pool;
  }

  /** The commands Redis receives from clients, in order, through `MONITOR`. */
  async function watchRedis(url: string) {
    const watcher = new Redis(url);
    clients.push(watcher);
    const monitor = await watcher.monitor();
    const seen: Array<{ command: string; source: string; argument: string }> = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) =>
      seen.push({ command: String(args[0]).toLowerCase(), source, argument: String(args[1] ?? '') }),
    );
    const indexOf = (marker: string) => seen.findIndex(entry => entry.command === 'echo' && entry.argument === marker);
    return {
      /** The commands between two `ECHO` markers, once the second has been seen, but those run inside scripts. */
      async between(from: string, to: string): Promise<string[]> {
        await waitUntil(() => indexOf(to) >= 0, { what: () => `the marker ${to} in MONITOR`, exited: () => false });
        return seen.slice(indexOf(from) + 1, indexOf(to)).filter(entry => entry.source !== 'lua').map(entry => entry.command);
      },
      close: () => monitor.disconnect(),
    };
  }
});

/** One priced route to the simulator's Chat Completions interface, and the limits above on every key. */
function writeConfig(path: string, upstreamURL: string): void {
  const route = { model: 'sim-via-chat', interfaces: ['chat'], targets: [{ upstream: 'simulator', model: 'sim-1' }], pricing: { inputPerMillion: 0.5, outputPerMillion: 1.5 } };
  writeFileSync(path, JSON.stringify({ upstreams: { simulator: { protocol: 'openai-chat', baseURL: `${upstreamURL}/v1` } }, routes: [route], limits: { default: LIMITS } }));
}
