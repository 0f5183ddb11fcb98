// Measures the gateway against the floor (a raw Node pass-through proxy) on the same machine in one
// run: each server in its own process with its own simulator, the load from this process over
// keep-alive connections. Prints requests per second, latency and the gateway/floor ratios.
// Then runs usage-page.mjs: the usage ledger's filtered pages and summaries over 1,000,000 rows.
// Usage: pnpm bench   (env: BENCH_SECONDS=5, BENCH_CONCURRENCY=32, BENCH_USAGE_ROWS=1000000; 0 skips the ledger)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postJSON, runLoad } from './load-test.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const KEY = `sy-${'b'.repeat(40)}`;
const root = join(import.meta.dirname, '../..');

function start(script, environment = {}) {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', script], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'silent', ...environment },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', chunk => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve({ child, url: match[1] });
    });
    child.once('exit', code => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
}

const messagesHeaders = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
const bearer = { authorization: `Bearer ${KEY}` };
const prompt = 'Describe how a railway switchyard sorts freight cars';
const SCENARIOS = [
  { name: 'translated JSON (Responses client -> Messages upstream)', gateway: ['/v1/responses', bearer, { model: 'sim-via-messages', input: prompt }], floor: ['/v1/messages', messagesHeaders, { model: 'sim-1', max_tokens: 256, messages: [{ role: 'user', content: prompt }] }] },
  { name: 'translated stream (Responses client -> Messages upstream)', gateway: ['/v1/responses', bearer, { model: 'sim-via-messages', input: prompt, stream: true }], floor: ['/v1/messages', messagesHeaders, { model: 'sim-1', max_tokens: 256, stream: true, messages: [{ role: 'user', content: prompt }] }] },
  { name: 'same-protocol JSON (Messages -> Messages)', gateway: ['/v1/messages', messagesHeaders, { model: 'sim-via-messages', max_tokens: 256, messages: [{ role: 'user', content: prompt }] }], floor: ['/v1/messages', messagesHeaders, { model: 'sim-1', max_tokens: 256, messages: [{ role: 'user', content: prompt }] }] },
  { name: 'translated stream (Chat client -> Responses upstream)', gateway: ['/v1/chat/completions', bearer, { model: 'sim-via-responses', stream: true, messages: [{ role: 'user', content: prompt }] }], floor: ['/v1/responses', bearer, { model: 'sim-1', input: prompt, stream: true }] },
];

/** `CONCURRENCY` clients sending `call` (`[path, headers, body]`) to `url` for `seconds`. */
function load(url, [path, headers, body], seconds) {
  const payload = JSON.stringify(body);
  return runLoad(CONCURRENCY, seconds, agent => postJSON(agent, `${url}${path}`, headers, payload));
}

const data = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
const gateway = await start('examples/server/dist/main.js', { SWITCHYARD_DEMO_KEY: KEY, SWITCHYARD_DATA_DIR: data });
const floor = await start('scripts/bench/raw-proxy.mjs');
const rows = [];
try {
  for (const scenario of SCENARIOS) {
    await load(gateway.url, scenario.gateway, 1);
    await load(floor.url, scenario.floor, 1);
    const measuredGateway = await load(gateway.url, scenario.gateway, SECONDS);
    const measuredFloor = await load(floor.url, scenario.floor, SECONDS);
    rows.push({ scenario: scenario.name, gateway: measuredGateway, floor: measuredFloor });
  }
} finally {
  gateway.child.kill('SIGTERM');
  floor.child.kill('SIGTERM');
  rmSync(data, { recursive: true, force: true });
}
const fixed = value => value.toFixed(1);
console.log(`\n${CONCURRENCY} concurrent keep-alive clients, ${SECONDS} s per measurement, node ${process.version}\n`);
console.log('| scenario | gateway req/s | floor req/s | ratio | gateway p50 / p99 ms | floor p50 / p99 ms |');
console.log('|---|---|---|---|---|---|');
for (const { scenario, gateway: g, floor: f } of rows) {
  console.log(`| ${scenario} | ${fixed(g.rps)} | ${fixed(f.rps)} | ${(g.rps / f.rps).toFixed(2)}x | ${fixed(g.p50)} / ${fixed(g.p99)} | ${fixed(f.p50)} / ${fixed(f.p99)} |`);
}

if (Number(process.env.BENCH_USAGE_ROWS ?? 1) > 0) {
  const ledger = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'usage-page.mjs')], { cwd: root, stdio: 'inherit' });
  if (ledger.status !== 0) process.exitCode = ledger.status ?? 1;
}
