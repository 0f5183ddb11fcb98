// Runs one of the benchmark's client processes (latency-probe.mjs, …) to its end and returns the
// JSON of its `BENCH-RESULT` line.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Runs `node scripts/bench/<script>` with `environment`; resolves with its result, rejects with its output if it fails. */
export function runProbe(script, environment) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, script)], { env: { PATH: process.env.PATH, ...environment }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', chunk => (output += chunk));
    child.stderr.on('data', chunk => (output += chunk));
    child.once('error', reject);
    child.once('exit', code => {
      const line = /^BENCH-RESULT (.*)$/m.exec(output);
      if (code !== 0 || !line) reject(new Error(`${script} failed (${code}):\n${output.slice(-2000)}`));
      else resolve(JSON.parse(line[1]));
    });
  });
}
