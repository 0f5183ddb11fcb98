import type { DatabaseSync } from 'node:sqlite';
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
};
