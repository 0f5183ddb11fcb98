// The client of the memory-per-stream measurement, as its own process: opens BENCH_STREAMS
// streaming requests at once (BENCH_URL, BENCH_BODY, BENCH_HEADERS as "name: value" lines; the body
// asks the upstream for a slow answer), waits until each has its response headers or
// BENCH_SECONDS pass, prints `BENCH-OPEN {"opened":N,"failed":N}`, holds them open until its stdin
// gets a line, then drops them all and exits.
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { readProbeRequest } from './probe-request.mjs';

const { url, body, headers } = readProbeRequest();
const streams = Number(process.env.BENCH_STREAMS ?? 1000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
const requests = [];
let failed = 0;
let openedCount = 0;
const opened = Array.from({ length: streams }, () => {
  return new Promise(resolve => {
    const outgoing = request(url, { method: 'POST', agent, headers }, answer => {
      if (answer.statusCode === 200) openedCount += 1;
      else failed += 1;
      answer.on('data', () => {});
      answer.on('error', () => {});
      resolve(answer.statusCode === 200);
    });
    outgoing.on('error', () => resolve(false));
    outgoing.end(body);
    requests.push(outgoing);
  });
});
let timer;
await Promise.race([Promise.all(opened), new Promise(resolve => (timer = setTimeout(resolve, seconds * 1000)))]);
clearTimeout(timer);
process.stdout.write(`BENCH-OPEN ${JSON.stringify({ opened: openedCount, failed })}\n`);
createInterface({ input: process.stdin }).once('line', () => {
  for (const outgoing of requests) outgoing.destroy();
  process.exit(0);
});
