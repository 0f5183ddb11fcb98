// The precise client of the added-latency measurement, as its own process: one request after the
// other over one keep-alive connection (concurrency 1), timed with hrtime. Reads BENCH_URL,
// BENCH_BODY, BENCH_HEADERS ("name: value" lines), BENCH_COUNT, BENCH_SECONDS (a cap) and
// BENCH_FIRST_DELTA: when set, a request's time is the time until the answer carries that text
// (the first streamed delta) rather than until its end, and BENCH_SECOND_DELTA (the next delta's
// text) tells whether the first delta arrived in the same read as the next one (coalesced).
// Prints `BENCH-RESULT {"samplesUs":[…],"coalesced":N,"failed":N}`.
import { Agent, request } from 'node:http';
import { readProbeRequest } from './probe-request.mjs';

const { url, body, headers } = readProbeRequest();
const count = Number(process.env.BENCH_COUNT ?? 1000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const firstDelta = process.env.BENCH_FIRST_DELTA || undefined;
const secondDelta = process.env.BENCH_SECOND_DELTA || undefined;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request; resolves with `{ us, coalesced }`, or `undefined` when it failed. */
function measureOne() {
  return new Promise(resolve => {
    const started = process.hrtime.bigint();
    let firstSeenUs;
    let coalesced = false;
    let tail = '';
    const outgoing = request(url, { method: 'POST', agent, headers }, answer => {
      answer.on('data', chunk => {
        if (firstDelta === undefined || firstSeenUs !== undefined) return;
        const text = tail + chunk.toString('latin1');
        const at = text.indexOf(firstDelta);
        if (at === -1) {
          tail = text.slice(-firstDelta.length);
          return;
        }
        firstSeenUs = Number(process.hrtime.bigint() - started) / 1e3;
        coalesced = secondDelta !== undefined && text.includes(secondDelta, at + firstDelta.length);
      });
      answer.on('end', () => {
        const endUs = Number(process.hrtime.bigint() - started) / 1e3;
        const failed = answer.statusCode !== 200 || (firstDelta !== undefined && firstSeenUs === undefined);
        resolve(failed ? undefined : { us: firstSeenUs ?? endUs, coalesced });
      });
    });
    outgoing.on('error', () => resolve(undefined));
    outgoing.end(body);
  });
}

const samplesUs = [];
let coalesced = 0;
let failed = 0;
const deadline = performance.now() + seconds * 1000;
for (let index = 0; index < count && performance.now() < deadline; index++) {
  const result = await measureOne();
  if (result === undefined) failed += 1;
  else {
    samplesUs.push(Math.round(result.us * 10) / 10);
    if (result.coalesced) coalesced += 1;
  }
}
agent.destroy();
process.stdout.write(`BENCH-RESULT ${JSON.stringify({ samplesUs, coalesced, failed })}\n`);
