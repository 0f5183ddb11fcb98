import type { AccountStore } from '@switchyard/accounts';

/** The store under test, replaced before each test by `describeAccountStoreContract`. */
export type ContractContext = { store: AccountStore };

/** Items in id order, so list checks do not depend on a backend's row order. */
export function sortById<T extends { id: string }>(items: readonly T[]): T[] {
  return [...items].sort((left, right) => left.id.localeCompare(right.id));
}
