import type { TransactionRunner } from './create-transaction-runner';
import type { Statements } from './prepare-statements';

/** What the method groups of one open store share. */
export type StoreContext = {
  statements: Statements;
  transaction: TransactionRunner;
  /** HMAC key for `hashApiKey`; the database holds only digests made with it. */
  serverSecret: string;
};
