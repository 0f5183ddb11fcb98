import { parentPort, workerData } from 'node:worker_threads';
import { GatewayError } from '@signalbox/core';
import { commitUsageRows } from './commit-usage-rows';
import { createMemoryHolds } from './create-memory-holds';
import { createTransactionRunner } from './create-transaction-runner';
import { createUsageMethods } from './create-usage-methods';
import { openDatabase } from './open-database';
import { prepareStatements } from './prepare-statements';
import type { LedgerContext } from './settle-in-transaction';
import type { LedgerCall, LedgerNotice, LedgerReply, LedgerThreadData, LedgerThreadMethods } from './start-ledger-thread';

/**
 * The ledger thread's program: its own connection to the file, the same usage methods the store
 * runs on its own connection, and one reply per call, in the order the calls finish. A batch of
 * commits brings the main thread's holds it settles (lent for the batch: the main thread lets them
 * go once the reply says the batch committed) and the time it is charged at. Between calls it
 * checkpoints the write-ahead log every `checkpointIntervalMs` (PASSIVE: it never blocks a writer).
 */
const { path, busyTimeoutMs, checkpointIntervalMs } = workerData as LedgerThreadData;
const port = parentPort!;
const database = openDatabase(path, busyTimeoutMs);
const statements = prepareStatements(database);
const holds = createMemoryHolds();
let chargedAt = 0;
const context: LedgerContext = {
  database,
  statements,
  transaction: createTransactionRunner(database),
  holds,
  // Nothing to cache here: every charge reads the account's row inside its transaction.
  accounts: { read: id => statements.selectAccount.get(id), forget() {}, clear() {} },
  now: () => chargedAt,
};
const { listUsage, summarizeUsage, listBalanceEvents, deleteUsageBefore } = createUsageMethods(context);
const methods: LedgerThreadMethods = {
  listUsage,
  summarizeUsage,
  listBalanceEvents,
  deleteUsageBefore,
  commitUsageRows: async rows => commitUsageRows(context, rows),
};
const running = new Set<Promise<void>>();
const checkpoints = checkpointIntervalMs > 0 ? startCheckpoints(checkpointIntervalMs) : undefined;

port.on('message', (call: LedgerCall | 'close') => {
  if (call !== 'close') {
    const answered = answer(call).finally(() => running.delete(answered));
    running.add(answered);
    return;
  }
  // After the calls already started (a retention deletion yields between its chunks), then nothing more.
  port.removeAllListeners('message');
  clearInterval(checkpoints);
  void Promise.allSettled(running).then(() => {
    database.close();
    port.close();
  });
});

async function answer(call: LedgerCall): Promise<void> {
  let reply: LedgerReply;
  const lent = call.holds ?? [];
  try {
    lent.forEach(hold => holds.add(hold));
    chargedAt = call.at ?? Date.now();
    const method = methods[call.method] as (...args: unknown[]) => Promise<unknown>;
    reply = { id: call.id, result: await method(...call.args) };
  } catch (error) {
    // A GatewayError (a bad cursor: 400) is sent as its options, so the caller gets one back, code and status kept.
    reply = GatewayError.isInstance(error)
      ? { id: call.id, gatewayError: { code: error.code, message: error.message, param: error.param, issues: error.issues } }
      : { id: call.id, error };
  } finally {
    holds.remove(lent);
  }
  try {
    port.postMessage(reply);
  } catch {
    // An error that cannot be cloned is sent as its text.
    port.postMessage({ id: call.id, error: new Error(String(reply.error)) } satisfies LedgerReply);
  }
}

/** Copies the write-ahead log into the database every `intervalMs`; a failure is told to the main thread and the next one runs as usual. */
function startCheckpoints(intervalMs: number): NodeJS.Timeout {
  const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  return setInterval(() => {
    try {
      checkpoint.get();
    } catch (error) {
      port.postMessage({ checkpointError: String(error) } satisfies LedgerNotice);
    }
  }, intervalMs);
}
