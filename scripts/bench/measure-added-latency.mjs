// Latency at concurrency 1, which the gateway adds to every call: per target, sequential requests
// from a precise client process (latency-probe.mjs), non-streamed (time to the end of the answer)
// and streamed (time to the first delta), in interleaved rounds whose samples are pooled; then a
// few streams with deltas 20 ms apart, to see whether the first delta reaches the client alone.
import { FIRST_DELTA, SCENARIOS, SECOND_DELTA, SPACED_STREAM } from './bench-scenarios.mjs';
import { percentile } from './format-bench-report.mjs';
import { probeRequestEnvironment } from './probe-request.mjs';
import { runProbe } from './run-probe.mjs';

/** Runs the probe against `server` with `request`; `firstDelta` switches it to time to first delta. */
function probe(server, request, count, seconds, firstDelta = false) {
  return runProbe('latency-probe.mjs', {
    ...probeRequestEnvironment(`${server.url}${request.path}`, request),
    BENCH_COUNT: String(count),
    BENCH_SECONDS: String(seconds),
    ...(firstDelta && { BENCH_FIRST_DELTA: FIRST_DELTA, BENCH_SECOND_DELTA: SECOND_DELTA }),
  });
}

/**
 * Resolves with `{ name: { json, firstDelta, spaced } }` for `targets` (`{ name: { server,
 * request(scenario) } }`): `json` and `firstDelta` as `{ p50Us, p99Us, count, failed }`, `spaced` as
 * `{ coalesced, count }`. Each target gets `requests` of each kind over the rounds, but at most
 * `secondsCap` seconds a round (a slow peer gets fewer samples rather than stretching the run).
 */
export async function measureAddedLatency({ targets, options, log, secondsCap = 4 }) {
  const samples = Object.fromEntries(Object.keys(targets).map(name => [name, { json: [], firstDelta: [], failed: { json: 0, firstDelta: 0 } }]));
  const perRound = Math.ceil(options.latencyRequests / options.rounds);
  for (const { server, request } of Object.values(targets)) {
    await probe(server, request(SCENARIOS.json), 100, 1);
    await probe(server, request(SCENARIOS.stream), 100, 1, true);
  }
  for (let round = 0; round < options.rounds; round++) {
    for (const [name, { server, request }] of Object.entries(targets)) {
      const json = await probe(server, request(SCENARIOS.json), perRound, secondsCap);
      const stream = await probe(server, request(SCENARIOS.stream), perRound, secondsCap, true);
      samples[name].json.push(...json.samplesUs);
      samples[name].firstDelta.push(...stream.samplesUs);
      samples[name].failed.json += json.failed;
      samples[name].failed.firstDelta += stream.failed;
      log(`latency round ${round + 1} ${name}: p50 ${percentile(json.samplesUs, 0.5)} µs, first delta p50 ${percentile(stream.samplesUs, 0.5)} µs`);
    }
  }
  const results = {};
  for (const [name, { server, request }] of Object.entries(targets)) {
    const spaced = await probe(server, request(SPACED_STREAM), 20, secondsCap, true);
    const summary = kind => ({ p50Us: percentile(samples[name][kind], 0.5), p99Us: percentile(samples[name][kind], 0.99), count: samples[name][kind].length, failed: samples[name].failed[kind] });
    results[name] = { json: summary('json'), firstDelta: summary('firstDelta'), spaced: { coalesced: spaced.coalesced, count: spaced.samplesUs.length } };
  }
  return results;
}
