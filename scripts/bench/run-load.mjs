// One measured window: a load generator (wrk, or the Node loop) in its own process against one
// server, with the server's CPU time read from /proc before and after.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { readChildrenCpuMicroseconds, readCpuMicroseconds } from './process-usage.mjs';
import { probeRequestEnvironment } from './probe-request.mjs';

/**
 * Runs `command` under `sh`, which prints its own /proc stat after waiting for it: the stat's
 * children times are then the generator's CPU time. Resolves with the generator's output and CPU µs.
 */
function runMeasuredChild(command, environment) {
  return new Promise((resolve, reject) => {
    const script = '"$@"; status=$?; echo "BENCH-CHILDREN $(cat /proc/$$/stat)"; exit $status';
    const child = spawn('sh', ['-c', script, 'sh', ...command], { env: { PATH: process.env.PATH, ...environment }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', chunk => (output += chunk));
    child.stderr.on('data', chunk => (output += chunk));
    child.once('error', reject);
    child.once('exit', code => {
      const children = /^BENCH-CHILDREN (.*)$/m.exec(output);
      if (code !== 0 || !children) return reject(new Error(`${command[0]} failed (${code}):\n${output.slice(-2000)}`));
      resolve({ output, cpuUs: readChildrenCpuMicroseconds(children[1]) });
    });
  });
}

/**
 * `connections` keep-alive clients POSTing `body` with `headers` to `url` for `seconds`, generated
 * by `generator` ('wrk' or 'node'). Resolves with requests per second, latency percentiles (µs),
 * failed requests (non-2xx/3xx answers, socket errors, timeouts), the CPU µs per request of the
 * process `serverPid` over the window, and the generator's own CPU µs per request.
 */
export async function runLoad({ generator, url, body, headers, connections, seconds, serverPid }) {
  const environment = { ...probeRequestEnvironment(url, { body, headers }), BENCH_CONNECTIONS: String(connections), BENCH_SECONDS: String(seconds) };
  const command =
    generator === 'wrk'
      ? ['wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '20s', '-s', join(import.meta.dirname, 'wrk-post.lua'), url]
      : [process.execPath, join(import.meta.dirname, 'node-load.mjs')];
  const cpuBefore = serverPid ? readCpuMicroseconds(serverPid) : 0;
  const { output, cpuUs: loadCpuUs } = await runMeasuredChild(command, environment);
  const cpuAfter = serverPid ? readCpuMicroseconds(serverPid) : 0;
  const line = /^BENCH-RESULT (.*)$/m.exec(output);
  if (!line) throw new Error(`no result from ${generator}:\n${output.slice(-2000)}`);
  const result = JSON.parse(line[1]);
  const requests = result.requests;
  return {
    requests,
    rps: requests / (result.durationUs / 1e6),
    p50Us: result.p50Us,
    p99Us: result.p99Us,
    failed: result.nonSuccess + result.socketErrors + result.timeouts,
    cpuUsPerRequest: requests > 0 ? (cpuAfter - cpuBefore) / requests : Number.NaN,
    cpuShare: (cpuAfter - cpuBefore) / result.durationUs,
    loadCpuUsPerRequest: requests > 0 ? loadCpuUs / requests : Number.NaN,
  };
}
