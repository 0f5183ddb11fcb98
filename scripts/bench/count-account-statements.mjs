// Counts the PostgreSQL statements per request of the example server on PostgreSQL + Redis, in this
// process (a hook on pg.Client.prototype.query), for concurrent JSON requests of one account: with
// the store's shared confirmation read (`confirmAccountForRequest`) and without it (the engine then
// confirms each request with `getAccount`), alternated. Not a test: counts depend on timing.
// Usage: pnpm run build && node scripts/bench/count-account-statements.mjs
// (env: BENCH_REQUESTS=1000, BENCH_CONCURRENCY=16, BENCH_ROUNDS=2)
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { postJSON } from './in-process-load.mjs';
import { startPostgres, startRedis } from './throwaway-databases.mjs';
import { Agent } from 'node:http';

const root = join(import.meta.dirname, '../..');
const fromStore = createRequire(join(root, 'packages/store-postgres/package.json'));
// The `pg` the store runs on, so the hook sees its statements.
const pg = fromStore('pg');
const { createPostgresAccountStore } = fromStore(join(root, 'packages/store-postgres/dist/index.js'));
const { generateApiKey } = createRequire(join(root, 'packages/accounts/package.json'))(join(root, 'packages/accounts/dist/index.js'));
const { startExampleServer } = createRequire(join(root, 'examples/server/package.json'))(join(root, 'examples/server/dist/index.js'));

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARM_UP = 50;
/** How a read of one account's row starts (the store's `SELECT_ACCOUNT`). */
const ACCOUNT_READ = 'SELECT id, name, balance_micros, reserved_micros, subscription, group_';
// Chat Completions, which stores nothing of the conversation: the statements are the account's and the ledger's.
const body = JSON.stringify({ model: 'signalbox-sim', messages: [{ role: 'user', content: 'Describe how a railway signalbox sorts freight cars' }], max_tokens: 16 });

/** Every statement's text, counted from `counting = true` on. */
const seen = new Map();
let counting = false;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  if (counting) {
    const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
    const name = String(text).replace(/\s+/g, ' ').trim().slice(0, 70);
    seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  return query.apply(this, args);
};

/** `count` requests from `CONCURRENCY` clients, one after the other each. */
async function send(url, key, count) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let left = count;
  const client = async () => {
    while (left-- > 0) await postJSON(agent, `${url}/v1/chat/completions`, { authorization: `Bearer ${key}` }, body);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  agent.destroy();
}

/** One round: a fresh store and server, shared confirmation reads or not; resolves with the statements counted. */
async function round(databaseURL, redisURL, shared) {
  const pool = new pg.Pool({ connectionString: databaseURL, max: 10 });
  const opened = await createPostgresAccountStore({ pool, serverSecret: 'count-account-statements', balanceLeases: { sliceMicros: 5_000_000 } });
  // Without the method the engine confirms each request with its own `getAccount`, as it did before it.
  const store = shared ? opened : { ...opened, confirmAccountForRequest: undefined };
  const server = await startExampleServer({ port: 0, host: '127.0.0.1', storage: { kind: 'store', store }, limiter: { kind: 'redis', url: redisURL }, environment: {} });
  const key = generateApiKey();
  const account = await opened.createAccount({ name: `count-${shared}`, balanceMicros: 1_000_000_000_000 });
  await opened.createKey({ accountId: account.id, name: 'count', secret: key });
  await send(server.url, key, WARM_UP);
  seen.clear();
  counting = true;
  await send(server.url, key, REQUESTS);
  counting = false;
  const counted = new Map(seen);
  await server.close(5_000);
  await opened.close();
  await pool.end();
  return counted;
}

const cleanups = [];
try {
  const [databaseURL, redisURL] = await Promise.all([startPostgres(cleanups), startRedis(cleanups)]);
  for (let index = 0; index < ROUNDS; index++) {
    for (const shared of [false, true]) {
      const counted = await round(databaseURL, redisURL, shared);
      const total = [...counted.values()].reduce((sum, count) => sum + count, 0);
      const accountReads = [...counted].filter(([name]) => name.startsWith(ACCOUNT_READ)).reduce((sum, [, count]) => sum + count, 0);
      console.log(`${shared ? 'shared confirmation   ' : 'getAccount per request'}: ${(total / REQUESTS).toFixed(3)} statements per request, ${(accountReads / REQUESTS).toFixed(3)} account reads per request (${REQUESTS} requests, c=${CONCURRENCY})`);
      for (const [name, count] of [...counted].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`    ${String(count).padStart(5)}  ${name}`);
    }
  }
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}
