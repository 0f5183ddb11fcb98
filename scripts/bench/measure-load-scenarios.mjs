// The load scenarios in interleaved rounds: for each scenario, round after round, every target
// gets one measured window in turn (floor, gateway, …, floor, gateway, …), so a slow spell of the
// machine hits them all alike; the median of the rounds is reported.
import { median } from './format-bench-report.mjs';
import { connectionsFor, runLoad } from './run-load.mjs';

/** Medians of the rounds' figures, and the rounds themselves. */
function summarise(rounds) {
  const of = field => median(rounds.map(round => round[field]));
  return {
    rps: of('rps'),
    cpuUsPerRequest: of('cpuUsPerRequest'),
    p50Us: of('p50Us'),
    p99Us: of('p99Us'),
    cpuShare: of('cpuShare'),
    loadCpuUsPerRequest: of('loadCpuUsPerRequest'),
    failed: rounds.reduce((sum, round) => sum + round.failed, 0),
    rounds,
  };
}

/**
 * Measures each scenario of `scenarios` (names of `SCENARIOS` in bench-scenarios.mjs) on each of
 * `targets` (`{ name: { server, request(scenario) } }`); resolves with `{ name: { scenario: summary } }`.
 * Round 0 starts with a one-second warm-up window per target that is not recorded.
 */
export async function measureLoadScenarios({ targets, scenarios, options, generator, log }) {
  const results = Object.fromEntries(Object.keys(targets).map(name => [name, {}]));
  for (const [scenarioName, scenario] of scenarios) {
    const connections = connectionsFor(scenarioName, options);
    const rounds = Object.fromEntries(Object.keys(targets).map(name => [name, []]));
    for (let round = 0; round < options.rounds; round++) {
      for (const [name, { server, request }] of Object.entries(targets)) {
        const load = seconds => runLoad({ generator, server, request: request(scenario), connections, seconds });
        if (round === 0) await load(1);
        const measured = await load(options.seconds);
        rounds[name].push(measured);
        log(`${scenarioName} round ${round + 1} ${name}: ${Math.round(measured.rps)} req/s, ${Math.round(measured.cpuUsPerRequest)} µs CPU/req${measured.failed ? `, ${measured.failed} failed` : ''}`);
      }
    }
    for (const name of Object.keys(targets)) results[name][scenarioName] = summarise(rounds[name]);
  }
  return results;
}
