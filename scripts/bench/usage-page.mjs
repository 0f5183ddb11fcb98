// Measures the usage ledger of the SQLite store at scale: fills a temporary database with
// BENCH_USAGE_ROWS rows (default 1,000,000) through the store's own `commitUsage`, in batches of
// 5,000 as the gateway's writer would send them, over 5 accounts, 20 keys and 6 models across 90
// days, then times filtered newest-first pages (limit 50) and a day-bucket summary.
// Usage: pnpm bench --ledger, or alone after `pnpm exec tsc -b`:
//   node scripts/bench/usage-page.mjs
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { createSQLiteAccountStore } = require('../../packages/store-sqlite/dist/index.js');

const ROWS = Number(process.env.BENCH_USAGE_ROWS ?? 1_000_000);
const BATCH = 5_000;
const DAY = 24 * 60 * 60 * 1000;
const END = Date.UTC(2026, 0, 1);
const SPAN_DAYS = 90;
const MODELS = ['claude-sonnet', 'claude-haiku', 'gpt-5', 'gpt-5-mini', 'o4-mini', 'sim-1'];
const PROTOCOLS = ['openai-responses', 'anthropic-messages', 'openai-chat'];

/** A small deterministic PRNG (mulberry32), so every run fills the same rows. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Status and outcome of one request: mostly answers, a few refusals, failures and aborts. */
function statusOf(roll) {
  if (roll < 0.04) return { status: 429, outcome: 'error', errorCode: 'RATE_LIMITED' };
  if (roll < 0.06) return { status: 502, outcome: 'error', errorCode: 'UPSTREAM_FAILED' };
  if (roll < 0.07) return { status: 400, outcome: 'error', errorCode: 'INVALID_REQUEST' };
  if (roll < 0.08) return { status: 499, outcome: 'client-aborted' };
  if (roll < 0.1) return { status: 200, outcome: 'incomplete' };
  return { status: 200, outcome: 'completed' };
}

const directory = mkdtempSync(join(tmpdir(), 'signalbox-usage-bench-'));
const path = join(directory, 'ledger.sqlite');
const store = createSQLiteAccountStore({ path, serverSecret: 'usage-bench-secret', holdSweepIntervalMs: 0 });
try {
  const accounts = [];
  for (let index = 0; index < 5; index++) accounts.push((await store.createAccount({ name: `bench ${index}` })).id);
  // The first account makes 40% of the requests, the others 15% each.
  const accountOf = roll => accounts[roll < 0.4 ? 0 : 1 + Math.floor((roll - 0.4) / 0.15)];
  const next = random(10);
  const fillStarted = performance.now();
  for (let written = 0; written < ROWS; written += BATCH) {
    const commits = [];
    for (let index = written; index < Math.min(ROWS, written + BATCH); index++) {
      const account = accountOf(next());
      const key = `key_${account.slice(-6)}_${Math.floor(next() * 4)}`;
      const stream = next() < 0.6;
      const { status, outcome, errorCode } = statusOf(next());
      const served = status === 200 || status === 499;
      commits.push({
        entry: {
          requestId: `req_${String(index).padStart(8, '0')}`,
          // Rows arrive in time order, as a live gateway writes them.
          time: END - SPAN_DAYS * DAY + Math.floor((index / ROWS) * SPAN_DAYS * DAY),
          accountId: account,
          keyId: key,
          keyPrefix: `sbx-${key.slice(-8)}`,
          model: MODELS[Math.floor(next() * MODELS.length)],
          upstream: 'bench-upstream',
          upstreamModel: 'bench-model',
          protocol: PROTOCOLS[Math.floor(next() * PROTOCOLS.length)],
          stream,
          status,
          outcome,
          ...(errorCode && { errorCode }),
          inputTokens: served ? 200 + Math.floor(next() * 4_000) : 0,
          outputTokens: served ? Math.floor(next() * 1_500) : 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 0,
          estimated: false,
          latencyMs: 50 + Math.floor(next() * next() * 20_000),
          ...(served && { timeToFirstByteMs: 20 + Math.floor(next() * 900) }),
          attempts: 1,
          warnings: [],
        },
        costMicros: served ? Math.floor(next() * 30_000) : 0,
      });
    }
    await store.commitUsage(commits);
  }
  const fillSeconds = (performance.now() - fillStarted) / 1000;

  /** Median wall time of `runs` calls of `work`, after one warm-up call. */
  const time = async (work, runs = 9) => {
    await work();
    const samples = [];
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      await work();
      samples.push(performance.now() - started);
    }
    samples.sort((left, right) => left - right);
    return samples[Math.floor(samples.length / 2)];
  };
  const page = (filter, cursor) => store.listUsage(filter, { limit: 50, ...(cursor && { cursor }) });
  const big = accounts[0];

  // A cursor 1,000 pages (50,000 rows) into the account's chain, reached by walking it.
  const DEPTH = 1_000;
  let cursor;
  const walkStarted = performance.now();
  for (let step = 0; step < DEPTH; step++) cursor = (await page({ accountId: big }, cursor)).nextCursor;
  const walkMs = performance.now() - walkStarted;

  const results = [
    ['no filter', await time(() => page({}))],
    ['one account (40% of rows)', await time(() => page({ accountId: big }))],
    ['account + model', await time(() => page({ accountId: big, model: 'gpt-5' }))],
    ['account + status 502 (2% of rows)', await time(() => page({ accountId: big, status: 502 }))],
    ['account + outcome client-aborted (1%, no index of its own)', await time(() => page({ accountId: big, outcome: 'client-aborted' }))],
    ['account + time range (one day, mid-span)', await time(() => page({ accountId: big, from: END - 45 * DAY, to: END - 44 * DAY }))],
    [`one account, page ${DEPTH + 1} of the cursor chain (after ${DEPTH * 50} rows)`, await time(() => page({ accountId: big }, cursor))],
  ];
  const monthFilter = { accountId: big, from: END - 30 * DAY, to: END };
  const summaryMs = await time(() => store.summarizeUsage(monthFilter, { bucket: 'day' }), 5);
  const groupedMs = await time(() => store.summarizeUsage(monthFilter, { bucket: 'day', groupBy: 'model' }), 5);
  const monthRows = (await store.summarizeUsage(monthFilter, { bucket: 'day' })).reduce((sum, row) => sum + row.requests, 0);
  const megabytes = suffix => {
    try {
      return (statSync(path + suffix).size / 1e6).toFixed(0);
    } catch {
      return '0';
    }
  };

  console.log(`\nUsage ledger: ${ROWS.toLocaleString('en')} rows in SQLite (database ${megabytes('')} MB, WAL ${megabytes('-wal')} MB), node ${process.version}`);
  console.log(`filled through commitUsage in batches of ${BATCH}: ${fillSeconds.toFixed(1)} s (${Math.round(ROWS / fillSeconds).toLocaleString('en')} rows/s)\n`);
  console.log('| query (newest first, limit 50) | median ms |');
  console.log('|---|---|');
  for (const [name, ms] of results) console.log(`| ${name} | ${ms.toFixed(2)} |`);
  console.log(`| walking ${DEPTH} pages of one account's cursor chain (total) | ${walkMs.toFixed(0)} |`);
  console.log(`| day-bucket summary, one account, 30 days (${monthRows.toLocaleString('en')} rows, p50/p95 exact) | ${summaryMs.toFixed(0)} |`);
  console.log(`| the same grouped by model | ${groupedMs.toFixed(0)} |`);
} finally {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
}
