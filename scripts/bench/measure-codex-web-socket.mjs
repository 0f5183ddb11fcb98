// The real Codex CLI's wall time for one turn that makes a 20-call tool loop (the simulator calls
// exec_command again after each result: `[[sim:tool-rounds=20]]`), through the example server's
// dist (run `pnpm run build` first), over the WebSocket mode (`supports_websockets = true`: a
// warm-up, then each call continuing the last by `previous_response_id` with only new items) and
// over HTTP streaming (each call resends the whole conversation), on the same route, in interleaved
// runs. The simulator answers at once (no token delay), so the figures are the transport's and the
// gateway's share of a rollout, not a model's. Prints one JSON line.
//
//   node scripts/bench/measure-codex-web-socket.mjs [--runs=5] [--model=sim-via-chat]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentSandbox, isolatedEnvironment, runCli, startEgressTrap } from '../../test/e2e/agents/agent-sandbox.ts';
import { codexConfig } from '../../test/e2e/agents/codex-config.ts';
import { startGateway, startSimulator } from './bench-servers.mjs';

const CODEX = createRequire(import.meta.url).resolve('@openai/codex/bin/codex.js');
const option = (name, fallback) => process.argv.find(argument => argument.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const runs = Number(option('runs', 5));
const model = option('model', 'sim-via-chat');
const PROMPT = 'Use exec_command to run `cat notes.txt` [[sim:tool-rounds=20]]';

/** One `codex exec` turn; resolves with its wall time in ms once it completed 20 commands. */
async function timeTurn(sandbox, trap, gateway, key, webSocket) {
  const providerLines = webSocket ? ['supports_websockets = true'] : [];
  writeFileSync(join(sandbox.config, 'config.toml'), codexConfig({ model, baseURL: gateway.url, providerLines }));
  const env = { ...isolatedEnvironment(sandbox, trap), CODEX_HOME: sandbox.config, SIGNALBOX_API_KEY: key };
  const started = performance.now();
  const run = await runCli(process.execPath, [CODEX, 'exec', '--json', '--skip-git-repo-check', PROMPT], { cwd: sandbox.cwd, env, timeoutMs: 120_000 });
  const elapsed = performance.now() - started;
  const commands = run.events.filter(event => event.type === 'item.completed' && event.item?.type === 'command_execution').length;
  if (run.code !== 0 || commands !== 20) throw new Error(`Codex did not complete the loop (exit ${run.code}, ${commands} commands):\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
  return elapsed;
}

const folder = mkdtempSync(join(tmpdir(), 'signalbox-codex-web-socket-'));
const key = `sbx-${randomBytes(20).toString('hex')}`;
const sandbox = createAgentSandbox('signalbox-codex-bench-');
writeFileSync(join(sandbox.cwd, 'notes.txt'), 'harbour-notes: the ferry leaves at nine\n');
const trap = await startEgressTrap();
const simulator = await startSimulator(folder);
const gateway = await startGateway(folder, 'gateway', simulator.url, { key, storage: { kind: 'sqlite' }, logLevel: 'warn' });
try {
  // One turn of each first: Codex's own start-up caches warm up, and so does the gateway.
  await timeTurn(sandbox, trap, gateway, key, true);
  await timeTurn(sandbox, trap, gateway, key, false);
  const times = { webSocket: [], http: [] };
  for (let run = 0; run < runs; run += 1) {
    times.webSocket.push(await timeTurn(sandbox, trap, gateway, key, true));
    times.http.push(await timeTurn(sandbox, trap, gateway, key, false));
  }
  if (trap.attempts.length > 0) throw new Error(`Codex tried to leave loopback: ${JSON.stringify(trap.attempts)}`);
  const median = values => [...values].sort((first, second) => first - second)[Math.floor(values.length / 2)];
  const round = values => values.map(value => Math.round(value));
  console.log(JSON.stringify({ model, toolCalls: 20, runs, webSocketMs: round(times.webSocket), httpMs: round(times.http), medianWebSocketMs: Math.round(median(times.webSocket)), medianHttpMs: Math.round(median(times.http)) }));
} finally {
  await gateway.stop();
  await simulator.stop();
  await trap.close();
  sandbox.remove();
  rmSync(folder, { recursive: true, force: true });
}
