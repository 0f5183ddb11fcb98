import { Worker } from 'node:worker_threads';

/** How often the checkpoint thread copies the write-ahead log into the database: once a second. */
export const DEFAULT_CHECKPOINT_INTERVAL_MS = 1000;

/**
 * The thread's whole program: its own connection to the file, a PASSIVE checkpoint every interval
 * (it never blocks a writer; the statement is prepared at the first tick, after the store is open),
 * and a clean close when told. Plain
 * JavaScript, so it runs the same from sources and from the build.
 */
const CHECKPOINT_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
// The main thread already printed node:sqlite's experimental warning; one per thread would be noise.
const emitWarning = process.emitWarning;
process.emitWarning = () => undefined;
const { DatabaseSync } = require('node:sqlite');
process.emitWarning = emitWarning;
const database = new DatabaseSync(workerData.path);
let checkpoint;
const timer = setInterval(() => {
  try {
    if (!checkpoint) {
      database.exec('PRAGMA busy_timeout = ' + workerData.busyTimeoutMs);
      checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    }
    checkpoint.get();
  } catch (error) {
    parentPort.postMessage(String(error));
  }
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  database.close();
  parentPort.close();
});
`;

/**
 * Moves WAL checkpoints off the event loop. By default SQLite checkpoints inside whichever commit
 * pushes the log past 1 000 pages, and that commit then copies pages and syncs the database file
 * on the caller's thread: a request path that commits stalls for it. The store turns that off for
 * its own connection (`PRAGMA wal_autocheckpoint = 0`) and lets this thread checkpoint on its own
 * connection instead (https://www.sqlite.org/wal.html#automatic_checkpoint). Returns the function
 * that stops the thread and waits for it to close its connection. The thread never keeps the process
 * alive while it runs, only while that function waits for it. Should it end without being told (it
 * failed), `onLost` is called, so the store can give the checkpoints back to its own connection
 * rather than let the log grow.
 */
export function startCheckpointWorker(
  path: string,
  options: {
    intervalMs: number;
    busyTimeoutMs: number;
    onError: (error: unknown) => void;
    onLost: () => void;
  },
): () => Promise<void> {
  const worker = new Worker(CHECKPOINT_THREAD, {
    eval: true,
    workerData: { path, intervalMs: options.intervalMs, busyTimeoutMs: options.busyTimeoutMs },
  });
  worker.on('message', message => options.onError(new Error(`WAL checkpoint failed: ${String(message)}`)));
  worker.on('error', options.onError);
  worker.unref();
  let running = true;
  let stopping = false;
  // Not `events.once`: it would reject on the thread's 'error' event, which comes before 'exit'.
  const exited = new Promise<void>(resolve =>
    worker.once('exit', () => {
      running = false;
      if (!stopping) options.onLost();
      resolve();
    }),
  );
  return async () => {
    stopping = true;
    if (!running) return;
    // Held while it closes: an unreferenced thread's exit would not keep the process alive, and a
    // caller awaiting it with nothing else to do (a start-up failure closing what it opened) would
    // see the process end before its `await` returns.
    worker.ref();
    worker.postMessage('close');
    await exited;
  };
}
