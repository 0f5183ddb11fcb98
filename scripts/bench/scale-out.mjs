// Measures the example server on PostgreSQL + Redis: requests per second of two instances against
// one (same machine, same load), and the latency PostgreSQL + Redis adds over SQLite + memory at
// concurrency 1. Starts a throwaway PostgreSQL (Debian's, as the tests do) and Redis on free
// loopback ports unless BENCH_DATABASE_URL / BENCH_REDIS_URL are given, each instance with its own
// embedded simulator, the load from this process over keep-alive connections. Not a test: numbers
// depend on the machine; docs/deploy.md lists the ones measured.
// Usage: pnpm exec tsc -b && node scripts/bench/scale-out.mjs
// (env: BENCH_SECONDS=8, BENCH_CONCURRENCY=32, BENCH_SYNCHRONOUS_COMMIT=on, BENCH_DATABASE_URL, BENCH_REDIS_URL)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postJSON, runInProcessLoad } from './in-process-load.mjs';
import { startServerProcess } from './server-process.mjs';
import { startPostgres, startRedis } from './throwaway-databases.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const KEY = `sbx-${randomBytes(20).toString('hex')}`;
const SECRET = randomBytes(32).toString('hex');
const ADMIN_TOKEN = randomBytes(24).toString('hex');
/** Clients spread over this many accounts (one key each) in the "many accounts" rows. */
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 32);
const root = join(import.meta.dirname, '../..');
const cleanups = [];

/** Starts the example server named `name`, its output in `folder`, stopped by the cleanups; resolves with its URL. */
async function startInstance(folder, name, environment) {
  const instance = await startServerProcess({
    name,
    script: 'examples/server/dist/main.js',
    cwd: root,
    environment: { PORT: '0', LOG_LEVEL: 'silent', SIGNALBOX_DEMO_KEY: KEY, SIGNALBOX_ADMIN_TOKEN: ADMIN_TOKEN, ...environment },
    logFile: join(folder, `${name}.log`),
  });
  cleanups.unshift(instance.stop);
  return instance.url;
}

const body = JSON.stringify({ model: 'sim-via-responses', input: 'Describe how a railway signalbox sorts freight cars', max_output_tokens: 64 });

/** `count` accounts with one key each, made through the admin API; returns the keys. */
async function seedAccounts(url, count) {
  const admin = async (path, payload) => {
    const response = await fetch(`${url}/admin${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    if (!response.ok) throw new Error(`POST /admin${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const keys = [];
  for (let index = 0; index < count; index += 1) {
    const account = await admin('/accounts', { name: `bench-${index}`, balance: 1_000 });
    keys.push((await admin('/keys', { accountId: account.id, name: `bench-${index}` })).secret);
  }
  return keys;
}

/** `concurrency` clients, each sending one request after the other, spread round-robin over `urls` and `keys`. */
function load(urls, concurrency, seconds, keys) {
  return runInProcessLoad(concurrency, seconds, (agent, index) =>
    postJSON(agent, `${urls[index % urls.length]}/v1/responses`, { authorization: `Bearer ${keys[index % keys.length]}` }, body),
  );
}

async function measure(urls, concurrency, keys = [KEY]) {
  await load(urls, concurrency, 1, keys);
  return load(urls, concurrency, SECONDS, keys);
}

try {
  const data = mkdtempSync(join(tmpdir(), 'signalbox-bench-data-'));
  cleanups.push(async () => rmSync(data, { recursive: true, force: true }));
  const [databaseURL, redisURL] = await Promise.all([process.env.BENCH_DATABASE_URL ?? startPostgres(cleanups, { synchronousCommit: process.env.BENCH_SYNCHRONOUS_COMMIT ?? 'on' }), process.env.BENCH_REDIS_URL ?? startRedis(cleanups)]);
  const shared = { SIGNALBOX_DATABASE_URL: databaseURL, SIGNALBOX_REDIS_URL: redisURL, SIGNALBOX_SERVER_SECRET: SECRET };
  const logs = mkdtempSync(join(tmpdir(), 'signalbox-bench-logs-'));
  cleanups.push(async () => rmSync(logs, { recursive: true, force: true }));
  const local = await startInstance(logs, 'local', { SIGNALBOX_DATA_DIR: data });
  // One after the other: the first adopts the demo key in the shared database, the second finds it.
  const first = await startInstance(logs, 'first', shared);
  const second = await startInstance(logs, 'second', shared);
  const [localKeys, sharedKeys] = [await seedAccounts(local, ACCOUNTS), await seedAccounts(first, ACCOUNTS)];
  const rows = [
    ['SQLite + memory, 1 instance, concurrency 1', await measure([local], 1)],
    ['PostgreSQL + Redis, 1 instance, concurrency 1', await measure([first], 1)],
    [`SQLite + memory, 1 instance, concurrency ${CONCURRENCY}, one account`, await measure([local], CONCURRENCY)],
    [`PostgreSQL + Redis, 1 instance, concurrency ${CONCURRENCY}, one account`, await measure([first], CONCURRENCY)],
    [`PostgreSQL + Redis, 2 instances, concurrency ${CONCURRENCY}, one account`, await measure([first, second], CONCURRENCY)],
    [`SQLite + memory, 1 instance, concurrency ${CONCURRENCY}, ${ACCOUNTS} accounts`, await measure([local], CONCURRENCY, localKeys)],
    [`PostgreSQL + Redis, 1 instance, concurrency ${CONCURRENCY}, ${ACCOUNTS} accounts`, await measure([first], CONCURRENCY, sharedKeys)],
    [`PostgreSQL + Redis, 2 instances, concurrency ${CONCURRENCY}, ${ACCOUNTS} accounts`, await measure([first, second], CONCURRENCY, sharedKeys)],
  ];
  const fixed = value => value.toFixed(1);
  console.log(`\n${SECONDS} s per measurement, non-streamed Responses requests (64 output tokens), node ${process.version}\n`);
  console.log('| setup | req/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|');
  for (const [name, result] of rows) console.log(`| ${name} | ${fixed(result.rps)} | ${fixed(result.p50)} | ${fixed(result.p99)} |`);
  const [sqliteOne, postgresOne, , postgresSingle, postgresDouble, , postgresSingleMany, postgresDoubleMany] = rows.map(([, result]) => result);
  console.log(`\ntwo instances / one, one account: ${(postgresDouble.rps / postgresSingle.rps).toFixed(2)}x`);
  console.log(`two instances / one, ${ACCOUNTS} accounts: ${(postgresDoubleMany.rps / postgresSingleMany.rps).toFixed(2)}x`);
  console.log(`added latency at concurrency 1 (p50): ${fixed(postgresOne.p50 - sqliteOne.p50)} ms`);
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => {});
}
