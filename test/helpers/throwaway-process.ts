import type { ChildProcess } from 'node:child_process';
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
