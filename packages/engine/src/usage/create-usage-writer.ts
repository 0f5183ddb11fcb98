import type { Settled, UsageCommit, UsageLedger } from '@switchyard/accounts';

/** One finished request waiting for the ledger, and who to tell what it was charged. */
export type QueuedCommit = {
  commit: UsageCommit;
  /**
   * Called once the batch holding it was committed, with the store's charge; with `undefined` when
   * the batch failed twice and neither its charge nor its row were written (its hold then waits for
   * the store's sweep to release it).
   */
  committed(settled: Settled | undefined): void;
};

/** Runs `work` soon, off the caller's stack: `setImmediate` in production, a hand-cranked queue in tests. */
export type CommitScheduler = (work: () => void) => void;

export type UsageWriterOptions = {
  ledger: Pick<UsageLedger, 'commitUsage'>;
  schedule: CommitScheduler;
  /** The most requests waiting for a commit; a write beyond it waits for a flush first. Default 1 000. */
  maxQueued?: number;
  /** Told about each failed commit (a batch is retried once) and any error thrown by a `committed` callback. */
  onError(error: unknown): void;
};

export type UsageWriter = {
  /**
   * Queues a finished request. Resolves at once unless the queue is full, in which case it first
   * waits for the queue to be committed: requests are never dropped, a full queue slows writers.
   */
  write(item: QueuedCommit): Promise<void>;
  /** Commits everything queued so far and resolves once it is committed (or given up after its retry). */
  flush(): Promise<void>;
};

/** How many finished requests may wait for the ledger before writers wait for a flush. */
export const DEFAULT_MAX_QUEUED_COMMITS = 1000;

/**
 * Writes finished requests to the ledger in batches, off the response path (group commit): the
 * first write schedules a commit; every request finished before it runs joins it, and whatever
 * arrives while a commit runs goes in the next one, started as soon as that commit ends. Each batch
 * is one `commitUsage` call (one transaction: every charge with its row, or none); a failed batch is
 * reported and tried once more, then given up and reported again, never half-written.
 */
export function createUsageWriter(options: UsageWriterOptions): UsageWriter {
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED_COMMITS;
  if (!Number.isSafeInteger(maxQueued) || maxQueued < 1) throw new Error('maxQueued must be an integer >= 1.');
  let queue: QueuedCommit[] = [];
  let running: Promise<void> | undefined;
  let scheduled = false;

  const commitBatch = async (batch: readonly QueuedCommit[]) => {
    const settled = await commitWithOneRetry(batch.map(item => item.commit));
    batch.forEach((item, index) => {
      try {
        item.committed(settled?.[index]);
      } catch (error) {
        options.onError(error);
      }
    });
  };
  const commitWithOneRetry = async (commits: UsageCommit[]): Promise<Settled[] | undefined> => {
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        return await options.ledger.commitUsage(commits);
      } catch (error) {
        options.onError(error);
      }
    }
    return undefined;
  };
  const commitQueue = async () => {
    // Let `running` be assigned before the loop can end and clear it.
    await Promise.resolve();
    try {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        await commitBatch(batch);
      }
    } finally {
      running = undefined;
    }
  };
  /** The commit in progress, started now if there is none and something is queued. */
  const pump = (): Promise<void> => {
    if (!running && queue.length > 0) running = commitQueue();
    return running ?? Promise.resolve();
  };

  return {
    async write(item) {
      while (queue.length >= maxQueued) await pump();
      queue.push(item);
      if (scheduled || running) return;
      scheduled = true;
      options.schedule(() => {
        scheduled = false;
        void pump();
      });
    },
    async flush() {
      while (running || queue.length > 0) await pump();
    },
  };
}
