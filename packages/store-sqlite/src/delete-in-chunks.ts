import type { StatementSync } from 'node:sqlite';
import type { TransactionRunner } from './create-transaction-runner';

/**
 * A retention delete: runs `chunk` (which deletes at most `size` rows older than its one parameter)
 * until it comes back short, each run its own transaction, so other writers get the lock between
 * them, and with a turn of the event loop between, so requests are served while a large deletion
 * runs. Resolves with how many rows went.
 */
export async function deleteInChunks(transaction: TransactionRunner, chunk: StatementSync, before: number, size: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const changes = Number(transaction(() => chunk.run(before)).changes);
    removed += changes;
    if (changes < size) return removed;
    await new Promise(resolve => setImmediate(resolve));
  }
}
