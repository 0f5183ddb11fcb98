import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { stopProcess } from '../helpers/throwaway-process';

const main = join(__dirname, '../../examples/server/dist/main.js');

/** One example-server process, started as `scripts/start.sh` does, on a free port. */
export type InstanceProcess = {
  url: string;
  pid: number;
  /** Everything it wrote (stdout and stderr), for failure messages. */
  output(): string;
  /** `kill -9`: no shutdown, no cleanup, as a crash. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and its graceful shutdown. */
  stop(): Promise<void>;
  exited(): boolean;
};

/**
 * Starts the built example server with `environment` added to a minimal one (PORT=0, loopback,
 * warnings only in the log); resolves with its URL once it prints that it listens.
 */
export function startInstanceProcess(environment: Record<string, string>): Promise<InstanceProcess> {
  if (!existsSync(main)) throw new Error(`Build first (pnpm exec tsc -b): ${main} is missing`);
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...environment },
  });
  let output = '';
  child.stdout.on('data', chunk => (output += chunk));
  child.stderr.on('data', chunk => (output += chunk));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance did not start:\n${output}`)), 20_000);
    const onOutput = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onOutput);
      resolve({
        url: match[1]!,
        pid: child.pid!,
        output: () => output,
        kill: () => stopProcess(child, 'SIGKILL'),
        stop: () => stopProcess(child, 'SIGTERM'),
        exited,
      });
    };
    child.stdout.on('data', onOutput);
    child.once('exit', code => {
      clearTimeout(timer);
      reject(new Error(`instance exited with ${code}:\n${output}`));
    });
  });
}

/** Runs the built example server with `environment` until it exits by itself (a start-up failure); at most 20 s. */
export function runUntilExit(environment: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  if (!existsSync(main)) throw new Error(`Build first (pnpm exec tsc -b): ${main} is missing`);
  const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', main], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...environment },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
