import type { AccountStore } from '@signalbox/accounts';

/** The clock and sweep timer a store under test is opened with, and the ledger retention when not the default. */
export type StoreClock = { now: () => number; holdSweepIntervalMs: number; usageRetentionDays?: number };

/**
 * The store under test, replaced before each test by `describeAccountStoreContract`, and the
 * factory for a store of the same kind on a clock of the test's own (the caller closes it).
 */
export type ContractContext = { store: AccountStore; createStore(clock: StoreClock): Promise<AccountStore> };

/** Items in id order, so list checks do not depend on a backend's row order. */
export function sortById<T extends { id: string }>(items: readonly T[]): T[] {
  return [...items].sort((left, right) => left.id.localeCompare(right.id));
}

/**
 * Fakes the clock and the timers a store's sweep runs on, starting at `now`, but not Node's I/O
 * callbacks (`nextTick`, `setImmediate`): a store on a network database (PostgreSQL) needs those
 * to receive its replies while the test advances the sweep timer.
 */
export function useSweepFakeTimers(now: number): void {
  jest.useFakeTimers({ now, doNotFake: ['nextTick', 'setImmediate'] });
}
