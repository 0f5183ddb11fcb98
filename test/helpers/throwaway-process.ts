import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as wait } from 'node:timers/promises';

/** A port of 127.0.0.1 that was free a moment ago (the OS picked it). */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise(resolve => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export type WaitOptions = {
  /** What was awaited, for the error: called only on failure. */
  what(): string;
  /** True once the process being waited for has exited (no point waiting longer). */
  exited(): boolean;
  /** Give up after this long. Default 20 s. */
  timeoutMs?: number;
};

/**
 * Polls `ready` every 50 ms until it holds. This waits on a real program starting up (a server
 * process), not on a clock the code under test reads, so a real wait is the only way.
 */
export async function waitUntil(ready: () => boolean | Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  while (!(await ready())) {
    if (options.exited()) throw new Error(`exited before it was ready: ${options.what()}`);
    if (Date.now() > deadline) throw new Error(`not ready in time: ${options.what()}`);
    await wait(50);
  }
}

/** Sends `signal` to the process by its PID and resolves once it has exited (SIGKILL after 10 s). */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise(resolve => child.once('exit', resolve));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A server process that can be stopped and started again, and finally stopped with its folder deleted. */
export type RestartableServer = {
  /** Stops the process with its stop signal. */
  pause(): Promise<void>;
  /** Starts it again; resolves once `ready` holds. */
  resume(): Promise<void>;
  /** Stops it and deletes its folder. */
  stop(): Promise<void>;
};

/**
 * Starts the process `start` spawns (its output kept for the error) and waits until `ready`; a start
 * that fails stops it and deletes `folder`. `pause` sends `stopSignal`, `resume` spawns it again.
 */
export async function startRestartableServer(options: {
  /** Names the server in a start-up error, e.g. "Redis on port 6379". */
  name: string;
  /** The server's temporary folder, deleted by `stop`. */
  folder: string;
  start(): ChildProcess;
  ready(): boolean | Promise<boolean>;
  stopSignal: NodeJS.Signals;
}): Promise<RestartableServer> {
  let server: ChildProcess | undefined;
  const pause = async () => {
    if (server) await stopProcess(server, options.stopSignal);
    server = undefined;
  };
  const resume = async () => {
    const child = options.start();
    server = child;
    let output = '';
    child.stdout?.on('data', chunk => (output += chunk));
    child.stderr?.on('data', chunk => (output += chunk));
    await waitUntil(options.ready, {
      what: () => `${options.name}:\n${output}`,
      exited: () => child.exitCode !== null || child.signalCode !== null,
    });
  };
  const stop = async () => {
    await pause();
    rmSync(options.folder, { recursive: true, force: true });
  };
  try {
    await resume();
  } catch (error) {
    await stop();
    throw error;
  }
  return { pause, resume, stop };
}
