// Responses' WebSocket mode, measured on the example server's dist (run `pnpm run build` first) in
// front of the simulator, each its own process, SQLite storage, the bench config's route
// (`sim-via-chat`: a Responses client translated to a Chat upstream, priced, every key limit on):
// - memory per idle connection: the gateway's resident memory before and with `--sockets`
//   connections open (default 1,000), divided by them;
// - slow readers: the gateway's peak resident memory (VmHWM) above idle while 20 clients are each
//   sent a 100,000-token answer, reading it as it comes, and reading nothing for 5 s (backpressure:
//   the gateway stops reading its upstream), against the answers' size on the wire;
// - CPU per response: the gateway's CPU time per streamed response over one WebSocket connection and
//   per streamed `POST /v1/responses` over a keep-alive connection, in interleaved rounds.
// Prints one JSON line; Linux only (/proc).
//
//   node scripts/bench/measure-web-socket.mjs [--sockets=1000] [--responses=400] [--rounds=5]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import WebSocket from 'ws';
import { startGateway, startSimulator } from './bench-servers.mjs';
import { readCpuMicroseconds, readRssBytes } from './process-usage.mjs';

const option = (name, fallback) => Number(process.argv.find(argument => argument.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const sockets = option('sockets', 1_000);
const responses = option('responses', 400);
const rounds = option('rounds', 5);
const MODEL = 'sim-via-chat';
const KiB = 1024;

/** Opens one WebSocket connection to the gateway's Responses path; resolves once it is open. */
function connect(url, key) {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${key}` }, perMessageDeflate: process.env.BENCH_DEFLATE !== '0' });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends one response.create and resolves with the bytes of its frames once its terminal frame arrived. */
function respond(socket, input) {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const onMessage = data => {
      bytes += data.length;
      const text = data.toString();
      if (/^\{"type":"(response\.(completed|incomplete|failed)|error)"/.test(text)) {
        socket.off('message', onMessage);
        if (text.startsWith('{"type":"error"')) reject(new Error(text));
        else resolve(bytes);
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ type: 'response.create', model: MODEL, input, store: false }));
  });
}

/** One streamed POST /v1/responses, read to its end. */
async function postStreamed(url, key, input) {
  const answer = await fetch(`${url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, input, stream: true, store: false }),
  });
  const text = await answer.text();
  if (!text.includes('event: response.completed')) throw new Error(`stream did not complete: ${answer.status} ${text.slice(0, 300)}`);
}

async function measureIdleSockets(gateway, key) {
  await wait(1_000);
  const before = readRssBytes(gateway.pid);
  const open = [];
  for (let batch = 0; batch < sockets; batch += 100) {
    open.push(...(await Promise.all(Array.from({ length: Math.min(100, sockets - batch) }, () => connect(gateway.url, key)))));
  }
  await wait(2_000);
  const held = readRssBytes(gateway.pid);
  for (const socket of open) socket.close();
  await wait(1_000);
  return { sockets, rssBeforeKiB: Math.round(before / KiB), rssOpenKiB: Math.round(held / KiB), perSocketKiB: Math.round(((held - before) / sockets / KiB) * 10) / 10 };
}

const STALLED_READERS = 20;

/** The gateway's peak resident memory (VmHWM) above idle, in KiB. */
function peakAboveIdleKiB(gateway, idle) {
  return Math.round((Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${gateway.pid}/status`, 'utf8'))[1]) * KiB - idle) / KiB);
}

/**
 * The gateway's peak resident memory above idle while `readers` clients are each sent a
 * 100,000-token answer: read as it comes, or (`stalled`) not read at all for 5 s, then read.
 */
async function peakWhileAnswering(gateway, key, readers, stalled) {
  await wait(1_000);
  const idle = readRssBytes(gateway.pid);
  writeFileSync(`/proc/${gateway.pid}/clear_refs`, '5');
  const clients = await Promise.all(Array.from({ length: readers }, () => connect(gateway.url, key)));
  const answers = clients.map(client => respond(client, '[[sim:tokens=100000]] Say hello'));
  if (stalled) {
    for (const client of clients) client.pause();
    await wait(5_000);
  }
  const peakKiB = peakAboveIdleKiB(gateway, idle);
  for (const client of clients) client.resume();
  const answerBytes = (await Promise.all(answers)).reduce((sum, bytes) => sum + bytes, 0);
  for (const client of clients) client.close();
  return { answersKiB: Math.round(answerBytes / KiB), peakAboveIdleKiB: stalled ? peakKiB : peakAboveIdleKiB(gateway, idle) };
}

async function measureSlowReaders(gateway, key) {
  const reading = await peakWhileAnswering(gateway, key, STALLED_READERS, false);
  const stalled = await peakWhileAnswering(gateway, key, STALLED_READERS, true);
  return { readers: STALLED_READERS, answersKiB: reading.answersKiB, readingPeakAboveIdleKiB: reading.peakAboveIdleKiB, stalledPeakAboveIdleKiB: stalled.peakAboveIdleKiB };
}

async function measureCpuPerResponse(gateway, key) {
  const socket = await connect(gateway.url, key);
  // Warm both paths up first.
  for (let index = 0; index < 50; index += 1) {
    await respond(socket, 'Say hello');
    await postStreamed(gateway.url, key, 'Say hello');
  }
  const spent = { webSocket: 0, sse: 0 };
  for (let round = 0; round < rounds; round += 1) {
    let started = readCpuMicroseconds(gateway.pid);
    for (let index = 0; index < responses; index += 1) await respond(socket, 'Say hello');
    spent.webSocket += readCpuMicroseconds(gateway.pid) - started;
    started = readCpuMicroseconds(gateway.pid);
    for (let index = 0; index < responses; index += 1) await postStreamed(gateway.url, key, 'Say hello');
    spent.sse += readCpuMicroseconds(gateway.pid) - started;
  }
  socket.close();
  const perResponse = microseconds => Math.round(microseconds / (rounds * responses));
  return { responses: rounds * responses, webSocketMicroseconds: perResponse(spent.webSocket), sseMicroseconds: perResponse(spent.sse) };
}

const folder = mkdtempSync(join(tmpdir(), 'signalbox-web-socket-'));
const key = `sbx-${randomBytes(20).toString('hex')}`;
const simulator = await startSimulator(folder);
const webSocket = { maxSockets: sockets + 100, maxSocketsPerKey: sockets + 100 };
const gateway = await startGateway(folder, 'gateway', simulator.url, { key, storage: { kind: 'sqlite' }, logLevel: 'warn', webSocket });
try {
  const idle = await measureIdleSockets(gateway, key);
  const slowReaders = await measureSlowReaders(gateway, key);
  const cpu = await measureCpuPerResponse(gateway, key);
  console.log(JSON.stringify({ idle, slowReaders, cpu }));
} finally {
  await gateway.stop();
  await simulator.stop();
  rmSync(folder, { recursive: true, force: true });
}
