// Measures how much of an agent session's input the upstream's prompt cache serves when the gateway
// spreads it over a pool of credentials: a session of the real Claude Code CLI (Messages in, a
// Messages upstream, its cache_control breakpoints carried) and one of the real Codex CLI (Responses
// in, a Responses upstream, automatic prefix caching), each `--turns` turns (a first run, then each
// turn resuming the same session), unmodified from devDependencies and sandboxed as in
// test/e2e/agents: throwaway HOME and config, every byte beyond 127.0.0.1 caught by a refusing proxy.
// Each scenario gets a fresh simulator (a cache per key) and a fresh example server (its dist: run
// `pnpm run build` first) whose upstream lists the simulator's keys as credentials:
//   a  one credential;  b  three, sessionAffinity off;  c  three, affinity on;
//   d  as c, and halfway the credential serving the session is revoked and the next one answers 429.
// The figures come from the gateway's usage API (GET /admin/usage), never from the CLIs' output.
// A gateway that does not know `sessionAffinity` refuses the key: c and d are then reported as not
// available (exit 1) and b runs without it (the pool spreads the turns, as with affinity off).
// Node 24: the shared .ts helpers of test/e2e/agents are loaded by stripping their types (Node
// warns once that their package declares no module type).
//
//   node scripts/bench/measure-cache-affinity.mjs [--only=claude|codex] [--scenarios=a,b,c,d] [--turns=20] [--out=FILE]
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { URLSearchParams } from 'node:url';
import { createAgentSandbox, isolatedEnvironment, runCli, startEgressTrap } from '../../test/e2e/agents/agent-sandbox.ts';
import { claudeCodeBinary, claudeCodeEnvironment } from '../../test/e2e/agents/claude-code-environment.ts';
import { codexConfig } from '../../test/e2e/agents/codex-config.ts';
import { startSimulator } from './bench-servers.mjs';
import { formatCacheAffinityTable, ledgerMatchesUpstream, parseCacheAffinityArguments, summariseUsageRows, USAGE } from './cache-affinity-report.mjs';
import { startServerProcess } from './server-process.mjs';

const root = join(import.meta.dirname, '../..');
const resolve = createRequire(import.meta.url).resolve;
const CLAUDE = claudeCodeBinary(resolve);
const CODEX = resolve('@openai/codex/bin/codex.js');
const CREDENTIALS = ['key-1', 'key-2', 'key-3'].map(name => ({ name, apiKeyEnv: `SIM_${name.toUpperCase().replace('-', '_')}`, key: `sk-sim-${name}` }));
const MODELS = { claude: 'sim-pool-messages', codex: 'sim-pool-responses' };
/** What turn `turn` asks: text only, nothing a tool's description names, so each turn adds a prompt and an answer. */
const promptFor = turn => `Say hello to guest ${turn}`;

/** The gateway's config for one scenario: both routes, over a pool of one or three of the simulator's keys. */
function gatewayConfig(simulatorURL, scenario, withAffinityKey) {
  const credentials = (scenario === 'a' ? CREDENTIALS.slice(0, 1) : CREDENTIALS).map(({ name, apiKeyEnv }) => ({ name, apiKeyEnv }));
  const affinity = withAffinityKey && scenario !== 'a' ? { sessionAffinity: { enabled: scenario !== 'b' } } : {};
  return {
    ...affinity,
    upstreams: {
      'simulator-messages': { protocol: 'anthropic-messages', baseURL: simulatorURL, credentials },
      'simulator-responses': { protocol: 'openai-responses', baseURL: `${simulatorURL}/v1`, credentials },
    },
    routes: [
      { model: MODELS.claude, interfaces: ['messages'], targets: [{ upstream: 'simulator-messages', model: 'sim-1' }] },
      { model: MODELS.codex, interfaces: ['responses'], targets: [{ upstream: 'simulator-responses', model: 'sim-1' }] },
    ],
  };
}

/** Starts the example server on `config`; resolves `{ gateway }`, or `{ refused }` when it exits on the config's `sessionAffinity` (a gateway without it). */
async function startGateway(folder, config, secrets) {
  const configPath = join(folder, 'gateway-config.json');
  writeFileSync(configPath, JSON.stringify(config));
  const data = join(folder, 'gateway-data');
  mkdirSync(data, { recursive: true });
  const keys = Object.fromEntries(CREDENTIALS.map(({ apiKeyEnv, key }) => [apiKeyEnv, key]));
  const environment = { PORT: '0', LOG_LEVEL: 'warn', SIGNALBOX_CONFIG: configPath, SIGNALBOX_DEMO_KEY: secrets.clientKey, SIGNALBOX_ADMIN_TOKEN: secrets.adminToken, SIGNALBOX_DATA_DIR: data, SIGNALBOX_SHUTDOWN_GRACE_MS: '0', ...keys };
  try {
    return { gateway: await startServerProcess({ name: 'gateway', script: 'examples/server/dist/main.js', cwd: root, environment, logFile: join(folder, 'gateway.log') }) };
  } catch (error) {
    const refused = /unknown field sessionAffinity/.exec(error.message)?.[0];
    if (refused === undefined) throw error;
    return { refused: `the gateway refuses its config: ${refused}` };
  }
}

/** One agent's turns: `run(prompt)` resolves `{ ok, detail }`, the first call starting the session and later ones resuming it. */
function claudeSession(sandbox, trap, gateway, secrets, timeoutMs) {
  const env = { ...isolatedEnvironment(sandbox, trap), ...claudeCodeEnvironment(sandbox, { baseURL: gateway.url, apiKey: secrets.clientKey }) };
  let sessionId;
  return async prompt => {
    const resume = sessionId === undefined ? [] : ['--resume', sessionId];
    const run = await runCli(CLAUDE, ['-p', '--output-format', 'stream-json', '--verbose', '--model', MODELS.claude, ...resume, prompt], { cwd: sandbox.cwd, env, timeoutMs });
    const result = run.events.find(event => event.type === 'result');
    sessionId ??= result?.session_id;
    return { ok: run.code === 0 && result?.subtype === 'success' && result.is_error === false, detail: failureDetail(run) };
  };
}

function codexSession(sandbox, trap, gateway, secrets, timeoutMs) {
  writeFileSync(join(sandbox.config, 'config.toml'), codexConfig({ model: MODELS.codex, baseURL: gateway.url }));
  const env = { ...isolatedEnvironment(sandbox, trap), CODEX_HOME: sandbox.config, SIGNALBOX_API_KEY: secrets.clientKey };
  let threadId;
  return async prompt => {
    const resume = threadId === undefined ? [] : ['resume'];
    const thread = threadId === undefined ? [] : [threadId];
    const run = await runCli(process.execPath, [CODEX, 'exec', ...resume, '--json', '--skip-git-repo-check', ...thread, prompt], { cwd: sandbox.cwd, env, timeoutMs });
    threadId ??= run.events.find(event => event.type === 'thread.started')?.thread_id;
    const failed = run.events.some(event => event.type === 'turn.failed' || event.type === 'error');
    return { ok: run.code === 0 && !failed && run.events.some(event => event.type === 'turn.completed'), detail: failureDetail(run) };
  };
}

/** The end of a run's output, bounded, for the JSON of a failed turn. */
const failureDetail = run => `exit ${run.code}: ${`${run.stdout}\n${run.stderr}`.trim().slice(-600)}`;

/** Every usage row of `model`, once the ledger holds at least `minimum` and two reads agree (rows are committed in batches). */
async function readUsageRows(gateway, adminToken, model, minimum) {
  let previous = -1;
  for (let attempt = 0; ; attempt += 1) {
    const rows = [];
    for (let cursor; ; ) {
      const query = new URLSearchParams({ model, limit: '1000', ...(cursor && { cursor }) });
      const response = await fetch(`${gateway.url}/admin/usage?${query}`, { headers: { authorization: `Bearer ${adminToken}` } });
      if (!response.ok) throw new Error(`GET /admin/usage answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
      const page = await response.json();
      rows.push(...page.data);
      if ((cursor = page.nextCursor) === null) break;
    }
    if ((rows.length >= minimum && rows.length === previous) || attempt === 50) return rows;
    previous = rows.length;
    await wait(100);
  }
}

/** Sets a simulator key's settings through its control endpoint (its name kept). */
async function configureKey(simulator, credential, settings = {}) {
  const response = await fetch(`${simulator.url}/simulator/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: credential.key, name: credential.name, ...settings }),
  });
  if (!response.ok) throw new Error(`POST /simulator/credentials answered ${response.status}: ${await response.text()}`);
}

/** Scenario d's disruption: the credential that served the last request is revoked, the next one in the pool refuses with 429 for a minute. */
async function disrupt(simulator, rows) {
  const last = rows.reduce((latest, row) => (Date.parse(row.time) >= Date.parse(latest.time) ? row : latest));
  const index = Math.max(0, CREDENTIALS.findIndex(credential => credential.name === last.upstreamCredential));
  const revoked = CREDENTIALS[index];
  const rateLimited = CREDENTIALS[(index + 1) % CREDENTIALS.length];
  await configureKey(simulator, revoked, { revoked: true });
  await configureKey(simulator, rateLimited, { requestsPerMinute: 0, retryAfterSeconds: 60 });
  return { revoked: revoked.name, rateLimited: rateLimited.name };
}

/** Runs one agent's session in one scenario against fresh servers; resolves its result row. */
async function measureScenario(agent, scenario, options) {
  const folder = mkdtempSync(join(tmpdir(), `signalbox-cache-affinity-${agent}-${scenario}-`));
  const secrets = { clientKey: `sbx-${randomBytes(20).toString('hex')}`, adminToken: randomBytes(24).toString('hex') };
  const simulator = await startSimulator(folder);
  let gateway;
  let sandbox;
  let trap;
  try {
    for (const credential of CREDENTIALS) await configureKey(simulator, credential);
    const started = await startGateway(folder, gatewayConfig(simulator.url, scenario, true), secrets);
    let note;
    if (started.refused !== undefined && scenario === 'b') {
      note = `session affinity not available (${started.refused}): run without the key, so the pool spreads the turns as with affinity off`;
      gateway = (await startGateway(folder, gatewayConfig(simulator.url, scenario, false), secrets)).gateway;
    } else if (started.refused !== undefined) {
      return { agent, scenario, error: `session affinity not available: ${started.refused}` };
    } else gateway = started.gateway;
    sandbox = createAgentSandbox(`signalbox-cache-affinity-${agent}-`);
    trap = await startEgressTrap();
    const turn = (agent === 'claude' ? claudeSession : codexSession)(sandbox, trap, gateway, secrets, options.timeoutMs);
    const failures = [];
    let disruption;
    for (let index = 1; index <= options.turns; index += 1) {
      const outcome = await turn(promptFor(index));
      if (!outcome.ok) failures.push({ turn: index, detail: outcome.detail });
      process.stderr.write(`${agent} ${scenario}: turn ${index} ${outcome.ok ? 'ok' : 'FAILED'}\n`);
      if (scenario === 'd' && index === Math.floor(options.turns / 2)) {
        disruption = { afterTurn: index, ...(await disrupt(simulator, await readUsageRows(gateway, secrets.adminToken, MODELS[agent], 1))) };
      }
    }
    const rows = await readUsageRows(gateway, secrets.adminToken, MODELS[agent], options.turns - failures.length);
    const upstream = (await (await fetch(`${simulator.url}/simulator/credentials`)).json()).credentials;
    const summary = summariseUsageRows(rows);
    const measured = { agent, scenario, turns: options.turns, failedTurns: failures.length, summary, ledgerMatchesUpstream: ledgerMatchesUpstream(summary, upstream) };
    return { ...measured, note, disruption, failures, egress: [...trap.attempts], upstream, rows };
  } finally {
    await trap?.close();
    await gateway?.stop();
    await simulator.stop();
    sandbox?.remove();
    rmSync(folder, { recursive: true, force: true });
  }
}

let options;
try {
  options = parseCacheAffinityArguments(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const results = [];
for (const agent of options.agents) {
  for (const scenario of options.scenarios) results.push(await measureScenario(agent, scenario, options));
}
console.log(formatCacheAffinityTable(results));
const escaped = results.flatMap(result => result.egress ?? []);
if (escaped.length > 0) console.log(`\nCalls the CLIs tried beyond 127.0.0.1 (refused): ${escaped.join(', ')}`);
if (options.out !== undefined) writeFileSync(options.out, `${JSON.stringify({ measuredAt: new Date().toISOString(), options, results }, null, 2)}\n`);
process.exitCode = results.some(result => result.error !== undefined || result.failedTurns > 0 || result.ledgerMatchesUpstream === false) ? 1 : 0;
