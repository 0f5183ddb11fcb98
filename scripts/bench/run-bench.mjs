// `pnpm bench`: the gateway (the example server's dist, every middleware on: auth, limits, pricing
// with balance holds, the usage ledger; SQLite in a temporary data folder, or PostgreSQL + Redis
// with --store=postgres) against the floor (a raw Node pass-through proxy) and the Portkey
// gateway, all in front of one simulator, each in its own process, the load from wrk (or the Node
// loop) in another. Scenarios run in interleaved rounds and report medians: JSON, 20-delta streams
// and paced streams (requests per second, CPU µs per request of the server process from /proc,
// p50/p99), the latency added at concurrency 1, memory per open stream and idle RSS. With --bedrock
// a second gateway serves a Messages route and a Bedrock-kind route (SigV4, event-stream frames)
// from a bench Bedrock upstream, whose signature checks run before the measurement. Prints one
// table with ratios to the floor, the targets as PASS/MISS lines, writes the results as JSON, and
// compares with an earlier run. `--help` lists the options; README.md#benchmark explains the columns.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { HELD_STREAM, SCENARIOS, TARGETS, requestFor } from './bench-scenarios.mjs';
import { startBedrockUpstream, startFloor, startGateway, startPortkey, startSimulator } from './bench-servers.mjs';
import { checkBedrockSignatures, readBedrockTally } from './check-bedrock-signatures.mjs';
import { ensureWrk } from './ensure-wrk.mjs';
import { evaluateTargets, formatChecks, formatComparison, formatResultTable } from './format-bench-report.mjs';
import { measureAddedLatency } from './measure-added-latency.mjs';
import { measureLoadScenarios } from './measure-load-scenarios.mjs';
import { MIDDLEWARE_VARIANTS, OBSERVABILITY_VARIANTS, formatVariants, measureVariants } from './measure-variants.mjs';
import { measureOpenStreams } from './measure-open-streams.mjs';
import { USAGE, parseBenchArguments } from './parse-bench-arguments.mjs';
import { profileScenarios } from './profile-scenarios.mjs';
import { readRssBytes } from './process-usage.mjs';
import { startPostgres, startRedis } from './throwaway-databases.mjs';

const root = join(import.meta.dirname, '../..');
const log = line => process.stderr.write(`  ${line}\n`);

let options;
try {
  options = parseBenchArguments(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
if (options.ledger) {
  const ledger = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'usage-page.mjs')], { cwd: root, stdio: 'inherit' });
  process.exit(ledger.status ?? 1);
}

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const commit = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? '+changes' : ''}`;
const notes = [];
const generator = options.load === 'wrk' ? ensureWrk(note => notes.push(note)) : 'node';
const openFiles = openFileLimit();
// Each held stream is two sockets in the server (its client's and its upstream's), for the floor too.
if (options.only.includes('memory') && openFiles !== undefined && 2 * options.streams + 100 > openFiles) {
  notes.push(`${options.streams} held streams need about ${2 * options.streams + 100} open files per server, above this machine's limit of ${openFiles} (ulimit -n): some will fail`);
}
const result = {
  version: 1,
  date: new Date().toISOString(),
  commit,
  node: process.version,
  machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), loadAverageAtStart: loadavg().map(value => Number(value.toFixed(2))) },
  generator,
  options,
  notes,
  targets: {},
};
const startedAt = performance.now();
const folder = mkdtempSync(join(tmpdir(), 'signalbox-bench-'));
const cleanups = [];
const servers = [];
let finished = false;
try {
  const key = `sbx-${randomBytes(20).toString('hex')}`;
  let storage = { kind: 'sqlite' };
  if (options.store === 'postgres') {
    log('starting throwaway PostgreSQL and Redis');
    const [databaseURL, redisURL] = await Promise.all([startPostgres(cleanups), startRedis(cleanups)]);
    storage = { kind: 'postgres', databaseURL, redisURL, serverSecret: randomBytes(32).toString('hex') };
  }
  log(`starting the simulator, the floor, the gateway (${options.store})${options.portkey ? ' and Portkey' : ''}; logs in ${folder}`);
  const simulator = await startSimulator(folder);
  servers.push(simulator);
  const floor = await startFloor(folder, simulator.url);
  servers.push(floor);
  const gateway = await startGateway(folder, 'gateway', simulator.url, { key, storage });
  servers.push(gateway);
  let portkey;
  if (options.portkey) {
    try {
      portkey = await startPortkey(folder);
      servers.push(portkey);
    } catch (error) {
      notes.push(`Portkey left out: it did not start (${error.message.split('\n')[0]})`);
    }
  }
  let bedrock;
  if (options.bedrock) {
    log('starting the bench Bedrock upstream and a gateway with the Messages and Bedrock routes');
    const upstream = await startBedrockUpstream(folder, simulator.url);
    servers.push(upstream);
    const bedrockGateway = await startGateway(folder, 'gateway-bedrock', simulator.url, { key, storage, bedrock: upstream });
    servers.push(bedrockGateway);
    bedrock = { upstream, gateway: bedrockGateway };
  }
  const context = { key, simulatorURL: simulator.url, upstreamKey: `bench-${randomBytes(8).toString('hex')}` };
  const serverOf = { floor, same: gateway, translated: gateway, ...(portkey && { portkey }), ...(bedrock && { messages: bedrock.gateway, bedrock: bedrock.gateway }) };
  const targets = Object.fromEntries(Object.entries(serverOf).map(([name, server]) => [name, { server, request: scenario => requestFor(name, scenario, context) }]));
  await wait(1000);
  for (const name of Object.keys(targets)) result.targets[name] = { label: TARGETS[name].label, idleRssBytes: readRssBytes(serverOf[name].pid), scenarios: {} };
  if (bedrock) {
    const tally = await checkBedrockSignatures({ ...bedrock, request: targets.bedrock.request });
    log(`Bedrock target: ${tally.verified} signatures checked with aws4, none refused`);
  }

  const loadScenarios = Object.entries(SCENARIOS).filter(([name]) => options.only.includes(name));
  const measured = await measureLoadScenarios({ targets, scenarios: loadScenarios, options, generator, log });
  for (const [name, scenarios] of Object.entries(measured)) result.targets[name].scenarios = scenarios;

  if (options.only.includes('latency')) {
    const latency = await measureAddedLatency({ targets, options, log });
    for (const [name, measuredLatency] of Object.entries(latency)) result.targets[name].latency = measuredLatency;
  }
  if (options.only.includes('memory')) {
    // Each target in a fresh process, so that the streams' memory is not hidden in a heap that an
    // earlier measurement already grew.
    const fresh = {
      floor: () => startFloor(folder, simulator.url, 'memory-floor', { streams: options.streams }),
      same: () => startGateway(folder, 'memory-same', simulator.url, { key, storage, streams: options.streams }),
      translated: () => startGateway(folder, 'memory-translated', simulator.url, { key, storage, streams: options.streams }),
      portkey: () => startPortkey(folder, 'memory-portkey'),
      messages: () => startGateway(folder, 'memory-messages', simulator.url, { key, storage, streams: options.streams, bedrock: bedrock.upstream }),
      bedrock: () => startGateway(folder, 'memory-bedrock', simulator.url, { key, storage, streams: options.streams, bedrock: bedrock.upstream }),
    };
    for (const [name, { request }] of Object.entries(targets)) {
      const server = await fresh[name]();
      try {
        // Opening thousands of streams at once takes a while on a small machine: 15 s, or 2 ms a stream.
        const memory = await measureOpenStreams(server, request(HELD_STREAM), options.streams, Math.max(15, options.streams / 500));
        result.targets[name].memory = memory;
        log(`memory ${name}: ${(memory.perStreamBytes / 1024).toFixed(1)} KiB per stream, ${memory.opened} of ${memory.held} opened`);
      } finally {
        await server.stop();
      }
    }
  }
  const variantContext = { folder, simulatorURL: simulator.url, key, storage, options, generator, log };
  if (options.middleware) result.middleware = await measureVariants({ label: 'middleware', variants: MIDDLEWARE_VARIANTS, ...variantContext });
  if (options.observability) {
    const scenarios = [['json', SCENARIOS.json], ['stream', SCENARIOS.stream]];
    result.observability = await measureVariants({ label: 'observability', variants: OBSERVABILITY_VARIANTS, scenarios, ...variantContext });
  }
  if (bedrock) {
    const tally = (result.bedrockUpstream = await readBedrockTally(bedrock.upstream));
    notes.push(`the bench Bedrock upstream checked ${tally.verified} of ${tally.calls} signatures with aws4 (the first 50 calls, the check before the measurement among them, then one in 1,000) and refused ${tally.refused}`);
  }
  result.machine.loadAverageAtEnd = loadavg().map(value => Number(value.toFixed(2)));
  result.seconds = Math.round((performance.now() - startedAt) / 1000);
  result.checks = evaluateTargets(result);

  const coreShares = Object.entries(result.targets)
    .filter(([, target]) => target.scenarios.json)
    .map(([name, target]) => `${name} ${(target.scenarios.json.cpuShare * 100).toFixed(0)} %`);
  const loadCost = Object.values(result.targets.floor.scenarios)[0]?.loadCpuUsPerRequest;
  console.log(`\nSignalbox ${commit}, ${result.date}, node ${process.version}, ${result.machine.cpus} × ${result.machine.model}`);
  console.log(`load average ${result.machine.loadAverageAtStart.join(' ')} at the start, ${result.machine.loadAverageAtEnd.join(' ')} at the end; ${result.seconds} s`);
  console.log(`store: ${options.store}; load: ${generator}, ${options.connections} connections (paced: ${options.pacedConnections}), ${options.rounds} interleaved rounds of ${options.seconds} s, medians`);
  if (coreShares.length > 0) console.log(`share of a core each server used under JSON load: ${coreShares.join(', ')}`);
  if (loadCost !== undefined) console.log(`the load generator used ${loadCost.toFixed(1)} µs CPU per request of the floor`);
  for (const note of notes) console.log(`note: ${note}`);
  console.log(`\n${formatResultTable(result)}\n\n${formatChecks(result.checks)}`);
  if (result.middleware) console.log(`\n${formatVariants(result.middleware)}`);
  if (result.observability) console.log(`\n${formatVariants(result.observability)}`);
  if (options.profile) {
    const profiled = loadScenarios.length > 0 ? loadScenarios : [['json', SCENARIOS.json]];
    result.profiles = (await profileScenarios({ folder, simulatorURL: simulator.url, key, storage, scenarios: profiled, options, generator, log })).map(({ target, scenario, file, summary }) => ({
      target,
      scenario,
      file,
      packages: summary.packages,
      functions: summary.functions,
    }));
  }

  const out = options.out ?? join(root, 'bench-results', `${result.date.replace(/[:.]/g, '-')}-${commit}.json`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nresults: ${out}`);
  if (options.compare) console.log(`\n${formatComparison(JSON.parse(readFileSync(options.compare, 'utf8')), result)}`);
  finished = true;
} finally {
  await Promise.all(servers.map(server => server.stop()));
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  if (finished) rmSync(folder, { recursive: true, force: true });
  else process.stderr.write(`the servers' logs are kept in ${folder}\n`);
}

/** The open-files limit this process (and the servers it starts) runs under, from /proc on Linux. */
function openFileLimit() {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}
