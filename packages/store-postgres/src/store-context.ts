import type { BalanceLeases } from './create-balance-leases';
import type { TransactionRunner } from './create-transaction-runner';
import type { SqlSession } from './sql-session';

/** What the method groups of one open store share. */
export type StoreContext = {
  /** Statements outside a transaction, each on whichever pooled connection is free. */
  sql: SqlSession;
  transaction: TransactionRunner;
  /**
   * The owner heartbeat and the hold sweep, on a connection of their own: behind a busy pool they
   * would wait for every request queued there, and a heartbeat written late makes the other
   * instances take this live one for dead and release its holds.
   */
  maintenance: { sql: SqlSession; transaction: TransactionRunner };
  /** HMAC key for `hashApiKey`; the database holds only digests made with it. */
  serverSecret: string;
  /** This instance's row in `hold_owners`: the owner of every hold it makes. */
  ownerId: string;
  /** The clock holds are made and expire by, and heartbeats are written with. */
  now(): number;
  /** This instance's balance leases, when it leases slices of balances (`balanceLeases`). */
  leases?: BalanceLeases;
};
