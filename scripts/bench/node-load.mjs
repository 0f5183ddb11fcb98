// The Node load loop as its own process, for machines without wrk (`--load=node`): keep-alive
// clients sending one POST after the other for a while. Reads BENCH_URL, BENCH_BODY, BENCH_HEADERS
// ("name: value" lines), BENCH_CONNECTIONS and BENCH_SECONDS; prints the line wrk-post.lua prints.
import { Agent, request } from 'node:http';
import { readProbeRequest } from './probe-request.mjs';

const { url, body, headers } = readProbeRequest();
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const latencies = [];
let bytes = 0;
let nonSuccess = 0;
let socketErrors = 0;

function send() {
  return new Promise(resolve => {
    const started = process.hrtime.bigint();
    const outgoing = request(url, { method: 'POST', agent, headers }, answer => {
      answer.on('data', chunk => (bytes += chunk.length));
      answer.on('end', () => {
        if (answer.statusCode < 200 || answer.statusCode > 399) nonSuccess += 1;
        latencies.push(Number(process.hrtime.bigint() - started) / 1e3);
        resolve();
      });
    });
    outgoing.on('error', () => {
      socketErrors += 1;
      resolve();
    });
    outgoing.end(body);
  });
}

const started = performance.now();
const deadline = started + seconds * 1000;
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (performance.now() < deadline) await send();
  }),
);
const durationUs = Math.round((performance.now() - started) * 1000);
agent.destroy();
latencies.sort((a, b) => a - b);
const at = share => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0);
const result = { requests: latencies.length, durationUs, bytes, nonSuccess, socketErrors, timeouts: 0, p50Us: at(0.5), p90Us: at(0.9), p99Us: at(0.99), maxUs: at(1) };
process.stdout.write(`BENCH-RESULT ${JSON.stringify(result)}\n`);
