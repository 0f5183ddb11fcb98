// Measures where an idle server's memory goes: the floor (raw-proxy.mjs) and the gateway (the
// example server's dist with the bench config: run `pnpm run build` first), each started the way
// `pnpm bench` starts them and read one second after it listens, as its `idleRssBytes` is. Each
// round starts a fresh floor and a fresh gateway, in turn. A preloaded probe (idle-memory-probe.cjs,
// which loads nothing else; an ES module preload would start Node's ES module loader, which shifts
// the young generation's collections and so the reading by about 4 MiB) reports the resident
// memory by kind (anonymous: the heaps; file: the node binary's pages), V8's heap spaces and the
// number of modules loaded. Prints the medians as one JSON line; Linux only (/proc).
//
//   node scripts/bench/measure-idle-memory.mjs [--rounds=5]
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { DEFAULT_CONNECTIONS } from './bench-config.mjs';
import { startGateway, startSimulator } from './bench-servers.mjs';
import { readRssBytes } from './process-usage.mjs';
import { startServerProcess } from './server-process.mjs';

const root = join(import.meta.dirname, '../..');
const probe = ['--require', join(import.meta.dirname, 'idle-memory-probe.cjs')];
const rounds = Number(/^--rounds=(\d+)$/.exec(process.argv[2] ?? '')?.[1] ?? 5);
const MiB = 1024 * 1024;

/** The floor as `startFloor` starts it, with the probe preloaded. */
function startProbedFloor(folder, simulatorURL, name, report) {
  const environment = { PORT: '0', UPSTREAM_URL: simulatorURL, MAX_SOCKETS: String(DEFAULT_CONNECTIONS), IDLE_MEMORY_REPORT: report };
  return startServerProcess({ name, script: 'scripts/bench/raw-proxy.mjs', cwd: root, nodeOptions: probe, environment, logFile: join(folder, `${name}.log`) });
}

/** The RSS one second after `server` listens, then what its probe reports (asked after the RSS is read). */
async function readIdle(server, report) {
  await wait(1000);
  const rss = readRssBytes(server.pid);
  process.kill(server.pid, 'SIGUSR2');
  for (let tries = 0; !existsSync(report) && tries < 100; tries++) await wait(20);
  const probed = JSON.parse(readFileSync(report, 'utf8'));
  await server.stop();
  return { ...probed, rss };
}

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mebibytes = bytes => Math.round((bytes / MiB) * 10) / 10;

/** The medians of the rounds' readings, in MiB (the module count as it is). */
function summarise(readings) {
  const of = pick => mebibytes(median(readings.map(pick)));
  const spaces = Object.keys(readings[0].spaces).filter(name => readings[0].spaces[name].size > 0);
  return {
    rssMiB: of(reading => reading.rss),
    rssAnonymousMiB: of(reading => reading.rssAnonymous),
    rssFileMiB: of(reading => reading.rssFile),
    heapTotalMiB: of(reading => reading.heapTotal),
    heapUsedMiB: of(reading => reading.heapUsed),
    externalMiB: of(reading => reading.external),
    spacesMiB: Object.fromEntries(spaces.map(name => [name, { size: of(reading => reading.spaces[name].size), used: of(reading => reading.spaces[name].used) }])),
    modules: median(readings.map(reading => reading.modules)),
  };
}

const folder = mkdtempSync(join(tmpdir(), 'signalbox-idle-memory-'));
const simulator = await startSimulator(folder);
const readings = { floor: [], gateway: [] };
try {
  for (let round = 0; round < rounds; round++) {
    const floorReport = join(folder, `floor-${round}.json`);
    readings.floor.push(await readIdle(await startProbedFloor(folder, simulator.url, `floor-${round}`, floorReport), floorReport));
    const gatewayReport = join(folder, `gateway-${round}.json`);
    const key = `sbx-${randomBytes(20).toString('hex')}`;
    const gateway = await startGateway(folder, `gateway-${round}`, simulator.url, { key, storage: { kind: 'sqlite' }, nodeOptions: probe, environment: { IDLE_MEMORY_REPORT: gatewayReport } });
    readings.gateway.push(await readIdle(gateway, gatewayReport));
  }
} finally {
  await simulator.stop();
  rmSync(folder, { recursive: true, force: true });
}
const rss = { floor: readings.floor.map(reading => mebibytes(reading.rss)), gateway: readings.gateway.map(reading => mebibytes(reading.rss)) };
console.log(JSON.stringify({ rounds, rssMiB: rss, floor: summarise(readings.floor), gateway: summarise(readings.gateway) }));
