import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Reservation, Settled, UsageLedger } from '@signalbox/accounts';
import { GatewayError, type GatewayErrorOptions } from '@signalbox/core';
import type { UsageRowCommit } from './commit-usage-rows';

/** What the thread answers: batches of compact rows, the retention deletion and the ledger's reads. */
export type LedgerThreadMethods = Pick<UsageLedger, 'listUsage' | 'summarizeUsage' | 'listBalanceEvents' | 'deleteUsageBefore'> & {
  commitUsageRows(rows: UsageRowCommit[]): Promise<Settled[]>;
};

export type LedgerMethod = keyof LedgerThreadMethods;

/** What the thread is started with: `checkpointIntervalMs` 0 leaves the write-ahead log to SQLite's own checkpoints. */
export type LedgerThreadData = { path: string; busyTimeoutMs: number; checkpointIntervalMs: number };

/** One call: a batch of commits also carries the main thread's holds it settles and the time it is charged at. */
export type LedgerCall = { id: number; method: LedgerMethod; args: unknown[]; holds?: Reservation[]; at?: number };

/** The answer to the call `id`: its result, or the error it threw (a `GatewayError` as its options). */
export type LedgerReply = { id: number; result?: unknown; error?: unknown; gatewayError?: GatewayErrorOptions };

/** What the thread says between replies: a WAL checkpoint that failed (the next one runs as usual). */
export type LedgerNotice = { checkpointError: string };

/** Told about the thread's life: `onLost` when it ended without being told (the reason), `onCheckpointError` when a checkpoint failed. */
export type LedgerThreadEvents = { onLost(error: Error): void; onCheckpointError(error: Error): void };

/** The calls still waiting when the thread ended without being told: the caller may run them itself. */
export class LedgerThreadLostError extends Error {
  override name = 'LedgerThreadLostError';
}

/** A thread with its own connection that answers usage ledger calls, one reply per call. */
export type LedgerThread = {
  call<M extends LedgerMethod>(
    method: M,
    args: Parameters<LedgerThreadMethods[M]>,
    lent?: { holds: Reservation[]; at: number },
  ): ReturnType<LedgerThreadMethods[M]>;
  /** False once it has ended (told to, or failed): calls then reject with `LedgerThreadLostError`. */
  readonly running: boolean;
  /**
   * Runs `callback` when no call is waiting for the thread: at once if none is, else as the last
   * answer arrives (before the code awaiting it goes on, so before another batch is sent) or the
   * thread ends. The thread then holds no write lock, so a write on another connection does not wait.
   */
  whenIdle(callback: () => void): void;
  /** Lets the calls already made finish, then closes the thread's connection and waits for it to end. */
  close(): Promise<void>;
};

/**
 * Bootstraps the thread: node:sqlite's experimental warning silenced (the main thread printed it
 * already), and when the store runs from its TypeScript sources (under jest) the same compiler jest
 * uses loads them, with `@signalbox/*` mapped to their sources as jest maps them. Plain JavaScript.
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const emitWarning = process.emitWarning;
process.emitWarning = () => undefined;
require('node:sqlite');
process.emitWarning = emitWarning;
if (workerData.compiler) {
  const { existsSync, readFileSync } = require('node:fs');
  const { registerHooks } = require('node:module');
  const { join } = require('node:path');
  const { fileURLToPath, pathToFileURL } = require('node:url');
  const { transformSync } = require(workerData.compiler);
  const source = path => (existsSync(path + '.ts') ? path + '.ts' : join(path, 'index.ts'));
  registerHooks({
    resolve(specifier, context, next) {
      const scoped = /^@signalbox\\/([^/]+)(?:\\/([^/]+))?$/.exec(specifier);
      if (scoped) return { url: pathToFileURL(join(workerData.packages, scoped[1], 'src', scoped[2] ?? '', 'index.ts')).href, shortCircuit: true };
      if (specifier.startsWith('.') && context.parentURL?.endsWith('.ts'))
        return { url: pathToFileURL(source(fileURLToPath(new URL(specifier, context.parentURL)))).href, shortCircuit: true };
      return next(specifier, context);
    },
    load(url, context, next) {
      if (!url.endsWith('.ts')) return next(url, context);
      const filename = fileURLToPath(url);
      const options = { filename, jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } };
      return { format: 'commonjs', source: transformSync(readFileSync(filename, 'utf8'), options).code, shortCircuit: true };
    },
  });
}
require(workerData.program);
`;

/** Starts the ledger thread on the file at `path` (from the build, or from sources when the store runs from them). */
export function spawnLedgerThread(data: LedgerThreadData): Worker {
  const fromSources = extname(__filename) === '.ts';
  const workerData = {
    ...data,
    program: join(__dirname, fromSources ? 'ledger-thread.ts' : 'ledger-thread.js'),
    ...(fromSources && { compiler: require.resolve('@swc/core'), packages: join(__dirname, '..', '..') }),
  };
  return new Worker(BOOTSTRAP, { eval: true, workerData });
}

/**
 * Talks to a started ledger thread: each call is one message, answered by one reply. The thread
 * never keeps the process alive while it waits for calls, only while a call is waiting for it. If
 * it ends without being told (it failed), `onLost` is told why and every waiting call rejects with
 * `LedgerThreadLostError`, so none hangs and the caller can run it on its own connection.
 */
export function startLedgerThread(worker: Worker, { onLost, onCheckpointError }: LedgerThreadEvents): LedgerThread {
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
  let idle: Array<() => void> = [];
  const runIdle = () => {
    const callbacks = idle;
    idle = [];
    callbacks.forEach(callback => callback());
  };
  let nextId = 0;
  let running = true;
  let closing = false;
  let failure: unknown;
  worker.unref();
  worker.on('message', (reply: LedgerReply | LedgerNotice) => {
    if ('checkpointError' in reply) return onCheckpointError(new Error(reply.checkpointError));
    const call = waiting.get(reply.id);
    if (!call) return;
    waiting.delete(reply.id);
    if (waiting.size === 0) {
      if (!closing) worker.unref();
      runIdle();
    }
    if (reply.gatewayError) call.reject(new GatewayError(reply.gatewayError));
    else if ('error' in reply) call.reject(reply.error);
    else call.resolve(reply.result);
  });
  worker.on('error', error => (failure = error));
  const exited = new Promise<void>(resolve =>
    worker.once('exit', code => {
      running = false;
      const lost = new LedgerThreadLostError(`The ledger thread stopped (exit code ${code}): ${String(failure ?? 'no error given')}`, {
        cause: failure,
      });
      if (!closing) onLost(lost);
      for (const call of waiting.values()) call.reject(lost);
      waiting.clear();
      runIdle();
      resolve();
    }),
  );
  return {
    get running() {
      return running && !closing;
    },
    whenIdle(callback) {
      if (waiting.size === 0) callback();
      else idle.push(callback);
    },
    call(method, args, lent) {
      if (!running || closing) return Promise.reject(new LedgerThreadLostError('The ledger thread is closed.')) as never;
      const id = nextId++;
      const call: LedgerCall = { id, method, args, ...(lent && { holds: lent.holds, at: lent.at }) };
      if (waiting.size === 0) worker.ref();
      worker.postMessage(call);
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject })) as never;
    },
    async close() {
      if (closing) return exited;
      closing = true;
      if (!running) return exited;
      // Held while it drains and closes, so a caller awaiting it with nothing else to do sees it end.
      worker.ref();
      worker.postMessage('close');
      return exited;
    },
  };
}
