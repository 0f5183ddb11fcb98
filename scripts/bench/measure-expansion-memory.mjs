// Measures the example server's resident memory while small requests try to make it expand stored
// items many times over: 40 references to a stored 1 MB picture and 100 to a 3.9 MB one on
// `POST /v1/responses`, and 40, 300 and 600 references to the 1 MB one on `POST /v1/responses/compact`.
// The server (its dist: run `pnpm run build` first) keeps its conversations in SQLite, in a data
// folder of its own, in front of the simulator in another process. Its RSS is read when idle (the
// pictures stored, one answered request behind it), then its peak (VmHWM, reset just before) over
// the attempts, each run `--rounds` times (default 3). Prints one JSON line; Linux only (/proc).
//
//   node scripts/bench/measure-expansion-memory.mjs [--rounds=3]
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { startSimulator } from './bench-servers.mjs';
import { readRssBytes } from './process-usage.mjs';
import { startServerProcess } from './server-process.mjs';

const root = join(import.meta.dirname, '../..');
const MODEL = 'sim-via-responses';
const MiB = 1024 * 1024;
const rounds = Number(/^--rounds=(\d+)$/.exec(process.argv[2] ?? '')?.[1] ?? 3);

/** The peak resident set size of `pid` since it started or since `resetPeak` (VmHWM), in bytes. */
function readPeakRssBytes(pid) {
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
}

/** Starts a new peak measurement from the resident set size now (`5` to /proc/PID/clear_refs). */
function resetPeak(pid) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

async function startGateway(folder, simulatorURL, key) {
  const configPath = join(folder, 'gateway-config.json');
  const upstream = { protocol: 'openai-responses', baseURL: `${simulatorURL}/v1` };
  const route = { model: MODEL, interfaces: ['responses'], targets: [{ upstream: 'simulator-responses', model: 'sim-1' }] };
  writeFileSync(configPath, JSON.stringify({ upstreams: { 'simulator-responses': upstream }, routes: [route] }));
  const data = join(folder, 'gateway-data');
  mkdirSync(data, { recursive: true });
  const environment = { PORT: '0', LOG_LEVEL: 'warn', SIGNALBOX_CONFIG: configPath, SIGNALBOX_DEMO_KEY: key, SIGNALBOX_DATA_DIR: data, SIGNALBOX_SHUTDOWN_GRACE_MS: '0' };
  return startServerProcess({ name: 'gateway', script: 'examples/server/dist/main.js', cwd: root, environment, logFile: join(folder, 'gateway.log') });
}

/** POSTs `body` as JSON with the key; returns the status, the body's size and the parsed body (or its first characters). */
async function post(url, key, body) {
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text.slice(0, 200);
  }
  return { status: response.status, bytes: text.length, body: parsed };
}

/** Stores a user message carrying a PNG of `characters` base64 characters; returns the stored item's id. */
async function storePicture(gateway, key, characters) {
  const content = [
    { type: 'input_image', image_url: `data:image/png;base64,${'A'.repeat(characters)}`, detail: 'auto' },
    { type: 'input_text', text: 'Keep this picture.' },
  ];
  const created = await post(`${gateway}/v1/responses`, key, { model: MODEL, input: [{ role: 'user', content }], max_output_tokens: 16 });
  if (created.status !== 200) throw new Error(`storing a picture failed: ${created.status} ${JSON.stringify(created.body)}`);
  const listed = await fetch(`${gateway}/v1/responses/${created.body.id}/input_items`, { headers: { authorization: `Bearer ${key}` } });
  return (await listed.json()).data[0].id;
}

const references = (id, times) => Array.from({ length: times }, () => ({ type: 'item_reference', id }));

const folder = mkdtempSync(join(tmpdir(), 'signalbox-expansion-memory-'));
const key = `sbx-${randomBytes(20).toString('hex')}`;
const simulator = await startSimulator(folder);
const gateway = await startGateway(folder, simulator.url, key);
try {
  const small = await storePicture(gateway.url, key, 1_000_000);
  const large = await storePicture(gateway.url, key, 3_900_000);
  const attempts = [
    ['responses: 40 references to the 1 MB picture', '/v1/responses', { model: MODEL, input: [...references(small, 40), { role: 'user', content: 'What do you see?' }] }],
    ['responses: 100 references to the 3.9 MB picture', '/v1/responses', { model: MODEL, input: [...references(large, 100), { role: 'user', content: 'What do you see?' }] }],
    ...[40, 300, 600].map(times => [`compact: ${times} references to the 1 MB picture`, '/v1/responses/compact', { model: MODEL, input: references(small, times) }]),
  ];
  // One answered request (and a settled heap) before idle is read.
  await post(`${gateway.url}/v1/responses`, key, { model: MODEL, input: 'Hello', max_output_tokens: 16 });
  await wait(2_000);
  const idleBytes = readRssBytes(gateway.pid);
  resetPeak(gateway.pid);
  const answers = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, path, body] of attempts) {
      const answer = await post(`${gateway.url}${path}`, key, body);
      if (round === 0) answers.push({ name, requestBytes: JSON.stringify(body).length, status: answer.status, code: answer.body?.code, answerBytes: answer.bytes });
    }
  }
  const peakBytes = readPeakRssBytes(gateway.pid);
  const toMiB = bytes => Math.round((bytes / MiB) * 10) / 10;
  console.log(JSON.stringify({ rounds, idleMiB: toMiB(idleBytes), peakMiB: toMiB(peakBytes), aboveIdleMiB: toMiB(peakBytes - idleBytes), answers }));
} finally {
  await gateway.stop();
  await simulator.stop();
  rmSync(folder, { recursive: true, force: true });
}
