// Starts one server of the benchmark (simulator, floor, gateway, peer) as its own Node process,
// its output in a log file rather than a pipe (so the benchmark process never reads it while it
// measures), and waits until the log says where it listens.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as wait } from 'node:timers/promises';

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * Spawns `node [...nodeOptions] script [...args]` with `environment` (plus PATH), output to
 * `logFile`; resolves once the log matches `ready` (a RegExp whose first group is the URL, or a
 * function of the log text returning the URL) with `{ name, pid, url, logFile, stop() }`. Rejects
 * with the log's tail if the process exits first or is not ready within 30 s. `stop()` sends
 * SIGTERM, waits for the exit (SIGKILL after 15 s) and resolves with the exit code.
 */
export async function startServerProcess({ name, script, args = [], nodeOptions = [], environment = {}, logFile, ready = LISTENING, cwd }) {
  const output = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', ...nodeOptions, script, ...args], {
    cwd,
    env: { PATH: process.env.PATH, ...environment },
    stdio: ['ignore', output, output],
  });
  closeSync(output);
  let exited = null;
  const exit = new Promise(resolve => child.once('exit', code => resolve((exited = code ?? 1))));
  const stop = async () => {
    if (exited !== null) return exited;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exit;
    clearTimeout(timer);
    return code;
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const log = readFileSync(logFile, 'utf8');
    const url = typeof ready === 'function' ? ready(log) : ready.exec(log)?.[1];
    if (url) return { name, pid: child.pid, url, logFile, stop };
    if (exited !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${name} ${exited === null ? 'was not ready within 30 s' : `exited with ${exited}`}; its log ends:\n${log.slice(-2000)}`);
    }
    await wait(50);
  }
}
