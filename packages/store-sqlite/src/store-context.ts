import type { DatabaseSync } from 'node:sqlite';
import type { AccountCache } from './create-account-cache';
import type { MemoryHolds } from './create-memory-holds';
import type { ResponseQueue } from './create-response-queue';
import type { RowCache } from './create-row-cache';
import type { TransactionRunner } from './create-transaction-runner';
import type { Statements } from './prepare-statements';

/** What the method groups of one open store share. */
export type StoreContext = {
  database: DatabaseSync;
  statements: Statements;
  transaction: TransactionRunner;
  /** HMAC key for `hashApiKey`; the database holds only digests made with it. */
  serverSecret: string;
  /** This instance's row in `hold_owners`: the owner of every hold it makes. */
  ownerId: string;
  /** The clock holds expire by. */
  now(): number;
  /**
   * Keys found by their secret, kept by digest, never by the secret. Only keys that were found are
   * kept (an unknown secret is looked up every time, so guessing cannot fill the cache); expiry is
   * not cached as a verdict: the row carries `expires_at`, compared with the clock on every request.
   */
  keys: RowCache;
  /** Account rows as the request path reads them (kept in memory only for a single gateway). */
  accounts: AccountCache;
  /** The holds of this process's requests when they are kept in memory (a single gateway); absent when they are rows. */
  holds: MemoryHolds | undefined;
  /** Response saves waiting to be written in a batch (a single gateway); absent when each save is written at once. */
  responseQueue: ResponseQueue | undefined;
};
