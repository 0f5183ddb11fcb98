import type { TransactionRunner } from './create-transaction-runner';
import type { Statements } from './prepare-statements';
import { writeResponse, type ResponseSave } from './write-response';

/**
 * Response saves waiting to be written, for a single gateway: `saveResponse` queues and returns, and
 * everything queued by the time the event loop comes round is written in one transaction, off the
 * request that made it. Readers of an account with saves queued see them: the account's latest save
 * is answered from the queue, anything else first writes the queue, so reads, the cap and item
 * lookups are exactly what they would be had every save been written at once.
 */
export type ResponseQueue = {
  add(save: ResponseSave): void;
  /** The account's most recent queued save, if any. */
  latestOf(accountId: string): ResponseSave | undefined;
  /** Writes everything queued now, on the caller's stack. */
  flush(): void;
  /** Writes everything queued; a save after this throws, as any call on a closed store does. */
  close(): void;
};

export type ResponseQueueOptions = {
  statements: Statements;
  transaction: TransactionRunner;
  /** Told about a save that could not be written (it is dropped; the others of its batch are written). */
  onError(error: unknown): void;
  /**
   * Runs a queued write once the connection can take the write lock without waiting for another
   * writer of this process (the ledger thread between batches). Default: at once.
   */
  whenWritable?: (write: () => void) => void;
};

export function createResponseQueue(options: ResponseQueueOptions): ResponseQueue {
  const { statements, transaction } = options;
  const whenWritable = options.whenWritable ?? (write => write());
  let queued: ResponseSave[] = [];
  const latest = new Map<string, ResponseSave>();
  let scheduled: NodeJS.Immediate | undefined;
  let closed = false;

  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (queued.length === 0) return;
    const batch = queued;
    queued = [];
    latest.clear();
    try {
      transaction(() => batch.forEach(save => writeResponse(statements, save)));
    } catch {
      // One bad save must not take the others with it: write each alone, report the ones that fail.
      for (const save of batch) {
        try {
          transaction(() => writeResponse(statements, save));
        } catch (error) {
          options.onError(error);
        }
      }
    }
  };
  return {
    add(save) {
      if (closed) throw new Error('The SQLite account store is closed.');
      queued.push(save);
      latest.set(save.record.accountId, save);
      scheduled ??= setImmediate(() => whenWritable(flush));
    },
    latestOf(accountId) {
      return latest.get(accountId);
    },
    flush,
    close() {
      flush();
      closed = true;
    },
  };
}
