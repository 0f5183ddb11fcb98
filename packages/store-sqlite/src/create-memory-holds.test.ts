import type { Reservation } from '@signalbox/accounts';
import { createMemoryHolds } from './create-memory-holds';

const hold = (id: string, accountId: string, amountMicros: number, expiresAt = 1_000): Reservation => ({
  id,
  accountId,
  amountMicros,
  expiresAt,
  ownerId: 'owner_test',
});

describe('createMemoryHolds', () => {
  it('adds up the holds of each account and lets go of each hold once', () => {
    const holds = createMemoryHolds();
    const first = hold('hold_1', 'acct_a', 300);
    holds.add(first);
    holds.add(hold('hold_2', 'acct_a', 200));
    holds.add(hold('hold_3', 'acct_b', 50));
    expect([holds.heldFor('acct_a'), holds.heldFor('acct_b'), holds.heldFor('acct_c')]).toEqual([500, 50, 0]);

    holds.remove([first, first]);
    expect(holds.heldFor('acct_a')).toBe(200);
    expect(holds.get('hold_1')).toBeUndefined();
    expect(holds.get('hold_2')).toEqual(hold('hold_2', 'acct_a', 200));
  });

  it('lets go of the holds expired at a time, and only those', () => {
    const holds = createMemoryHolds();
    holds.add(hold('hold_early', 'acct_a', 100, 1_000));
    holds.add(hold('hold_late', 'acct_a', 10, 2_000));
    expect(holds.removeExpired(999)).toBe(0);
    expect(holds.removeExpired(1_000)).toBe(1);
    expect(holds.heldFor('acct_a')).toBe(10);
    expect(holds.get('hold_late')).toBeDefined();
  });
});
