// Runs the benchmark's client processes to their end: any command with its output collected
// (run-load.mjs runs the load generators so), and the Node probes (latency-probe.mjs, …), whose
// `BENCH-RESULT` line's JSON is returned.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Runs `command` with `args` and `environment` (plus PATH) to its end; resolves with its exit code and its output, stdout and stderr together. */
export function runToEnd(command, args, environment) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { PATH: process.env.PATH, ...environment }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', chunk => (output += chunk));
    child.stderr.on('data', chunk => (output += chunk));
    child.once('error', reject);
    child.once('exit', code => resolve({ code, output }));
  });
}

/** Runs `node scripts/bench/<script>` with `environment`; resolves with its result, rejects with its output if it fails. */
export async function runProbe(script, environment) {
  const { code, output } = await runToEnd(process.execPath, [join(import.meta.dirname, script)], environment);
  const line = /^BENCH-RESULT (.*)$/m.exec(output);
  if (code !== 0 || !line) throw new Error(`${script} failed (${code}):\n${output.slice(-2000)}`);
  return JSON.parse(line[1]);
}
