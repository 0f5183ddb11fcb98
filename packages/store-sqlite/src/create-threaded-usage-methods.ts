import type { Reservation, UsageCommit, UsageLedger } from '@signalbox/accounts';
import { toUsageRowCommit } from './commit-usage-rows';
import { createUsageMethods } from './create-usage-methods';
import {
  LedgerThreadLostError,
  spawnLedgerThread,
  startLedgerThread,
  type LedgerThread,
  type LedgerThreadData,
  type LedgerThreadEvents,
} from './start-ledger-thread';
import type { StoreContext } from './store-context';

/** The ledger calls other than a batch of commits: each goes to the thread as it is. */
type ReadMethod = 'listUsage' | 'summarizeUsage' | 'listBalanceEvents' | 'deleteUsageBefore';

/** The usage ledger of a single gateway, and what stops its thread once the calls made are answered. */
export type ThreadedUsageLedger = UsageLedger & { closeThreads(): Promise<void> };

/**
 * A single gateway's usage ledger off the event loop: batches of commits (each hold settled, each
 * row inserted with its indexes, the WAL written), the retention deletion and the reads (usage
 * pages, summaries, balance events) run on one thread with its own connection, started at the first
 * call. One thread, not a writer and a reader: each costs about 16 MiB, and a read only delays the
 * next batch, never a request. A batch's holds stay in this thread's memory, counted against the
 * balance, until the thread says the batch committed; then they go and their accounts' cached rows
 * are forgotten. The thread also checkpoints the write-ahead log. A thread that fails is reported
 * to `onLost`, and its calls, waiting or later, run on the store's own connection as they would
 * without it (a batch it may have committed before failing is found by its request ids and not
 * charged twice).
 */
export function createThreadedUsageMethods(context: StoreContext, ledger: LazyLedgerThread): ThreadedUsageLedger {
  const local = createUsageMethods(context);
  const onThread = async <T>(thread: LedgerThread | undefined, call: (thread: LedgerThread) => Promise<T>, alone: () => Promise<T>) => {
    if (!thread) return alone();
    try {
      return await call(thread);
    } catch (error) {
      if (error instanceof LedgerThreadLostError) return alone();
      throw error;
    }
  };
  /** A read or the retention deletion: on `thread`, or on the store's connection without one. */
  const relay = <M extends ReadMethod>(method: M, args: Parameters<UsageLedger[M]>, thread: LedgerThread | undefined): ReturnType<UsageLedger[M]> => {
    const alone = local[method] as (...values: Parameters<UsageLedger[M]>) => Promise<unknown>;
    return onThread<unknown>(thread, running => running.call(method, args as never), () => alone(...args)) as ReturnType<UsageLedger[M]>;
  };
  return {
    async commitUsage(commits) {
      const holds = lentHolds(context, commits);
      const settled = await onThread(
        ledger.get(),
        thread => thread.call('commitUsageRows', [commits.map(toUsageRowCommit)], { holds, at: context.now() }),
        () => local.commitUsage(commits),
      );
      context.holds?.remove(holds);
      for (const { reservation } of commits) if (reservation) context.accounts.forget(reservation.accountId);
      return settled;
    },
    listUsage: (...args) => relay('listUsage', args, ledger.get()),
    summarizeUsage: (...args) => relay('summarizeUsage', args, ledger.get()),
    listBalanceEvents: (...args) => relay('listBalanceEvents', args, ledger.get()),
    // The sweep's deletion starts no thread: an idle gateway that never charged runs none.
    deleteUsageBefore: (...args) => relay('deleteUsageBefore', args, ledger.current()),
    async closeThreads() {
      await ledger.close();
    },
  };
}

/** The holds of this thread's memory that a batch settles, each once. */
function lentHolds(context: StoreContext, commits: readonly UsageCommit[]): Reservation[] {
  const lent = new Map<string, Reservation>();
  for (const { reservation } of commits) {
    const held = reservation && context.holds?.get(reservation.id);
    if (held) lent.set(held.id, held);
  }
  return [...lent.values()];
}

/** The ledger thread of a store, started at its first use; none once it failed or was closed (its calls then run on the store's connection). */
export type LazyLedgerThread = {
  /** The thread, started at this first call. */
  get(): LedgerThread | undefined;
  /** The thread if it already runs; never starts one. */
  current(): LedgerThread | undefined;
  /** Runs a write of the store's own connection when no batch is on the thread (see `LedgerThread.whenIdle`); at once without a thread. */
  whenIdle(write: () => void): void;
  close(): Promise<void>;
};

/** `onStart` is told once, as the thread starts (so the store can leave WAL checkpoints to it), besides the thread's own events. */
export function createLazyLedgerThread(data: LedgerThreadData, events: LedgerThreadEvents & { onStart(): void }): LazyLedgerThread {
  let thread: LedgerThread | undefined;
  let ended = false;
  return {
    get() {
      if (ended) return undefined;
      if (!thread) {
        thread = startLedgerThread(spawnLedgerThread(data), {
          onLost(error) {
            ended = true;
            events.onLost(error);
          },
          onCheckpointError: events.onCheckpointError,
        });
        events.onStart();
      }
      return thread;
    },
    current() {
      return ended ? undefined : thread;
    },
    whenIdle(write) {
      if (thread) thread.whenIdle(write);
      else write();
    },
    async close() {
      ended = true;
      await thread?.close();
    },
  };
}
