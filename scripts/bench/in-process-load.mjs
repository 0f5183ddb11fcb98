// The in-process load of scale-out.mjs: keep-alive clients, each sending one request after the other
// (run-load.mjs is the main benchmark's load, a generator process against one server).
import { Agent, request } from 'node:http';

/** POSTs the JSON `payload` to `url` over `agent`; resolves with the latency in ms once the answer is read, rejects unless it is a 200. */
export function postJSON(agent, url, headers, payload) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const outgoing = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers } }, answer => {
      answer.on('data', () => {});
      answer.on('end', () => (answer.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`status ${answer.statusCode}`))));
    });
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/**
 * `concurrency` clients for `seconds`, client number `index` calling `send(agent, index)` (which
 * resolves with a latency in ms) again and again; resolves with requests per second, p50 and p99.
 */
export async function runInProcessLoad(concurrency, seconds, send) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  const deadline = Date.now() + seconds * 1000;
  const worker = async index => {
    while (Date.now() < deadline) latencies.push(await send(agent, index));
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, (_, index) => worker(index)));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = share => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))];
  return { rps: latencies.length / ((Date.now() - started) / 1000), p50: at(0.5), p99: at(0.99) };
}
