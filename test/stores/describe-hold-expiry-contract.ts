import { DEFAULT_HOLD_LIFETIME_MS } from '@signalbox/accounts';
import { useSweepFakeTimers, type ContractContext } from './contract-context';

const T0 = 1_767_225_600_000;

/** Holds carry an expiry and an owner; expired holds are released without charge, by call and by timer. */
export function describeHoldExpiry(context: ContractContext): void {
  describe('hold expiry', () => {
    afterEach(() => {
      jest.useRealTimers();
    });

    it('gives a hold the expiry it was asked for, or the store clock plus the default lifetime, and the store as owner', async () => {
      const store = await context.createStore({ now: () => T0, holdSweepIntervalMs: 0 });
      try {
        const account = await store.createAccount({ name: 'E', balanceMicros: 1000 });
        const asked = (await store.reserve(account.id, 10, { expiresAt: T0 + 5_000 }))!;
        const defaulted = (await store.reserve(account.id, 10))!;
        expect(asked.expiresAt).toBe(T0 + 5_000);
        expect(defaulted.expiresAt).toBe(T0 + DEFAULT_HOLD_LIFETIME_MS);
        expect(asked.ownerId).toBe(defaulted.ownerId);
      } finally {
        await store.close();
      }
    });

    it('releases expired holds without charge and keeps the others; a later settle of a released hold does nothing', async () => {
      const { store } = context;
      const account = await store.createAccount({ name: 'E', balanceMicros: 1000 });
      const early = (await store.reserve(account.id, 300, { expiresAt: T0 + 1_000 }))!;
      const late = (await store.reserve(account.id, 200, { expiresAt: T0 + 2_000 }))!;
      expect(await store.releaseExpiredHolds(T0 + 999)).toBe(0);
      expect(await store.releaseExpiredHolds(T0 + 1_000)).toBe(1);
      expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 1000, reservedMicros: 200 });
      expect(await store.settle(early, 300)).toBeUndefined();
      expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 1000, reservedMicros: 200 });
      expect(await store.settle(late, 50)).toEqual({ chargedMicros: 50, uncoveredMicros: 0 });
      expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 950, reservedMicros: 0 });
    });

    it('totals the outstanding holds for metrics: their count, their amount and the first expiry', async () => {
      const { store } = context;
      const account = await store.createAccount({ name: 'E', balanceMicros: 1000 });
      expect(await store.holdTotals!()).toEqual({ count: 0, amountMicros: 0, earliestExpiresAt: undefined });
      const settled = (await store.reserve(account.id, 300, { expiresAt: T0 + 2_000 }))!;
      await store.reserve(account.id, 200, { expiresAt: T0 + 1_000 });
      await store.reserve(account.id, 100, { expiresAt: T0 + 3_000 });
      expect(await store.holdTotals!()).toEqual({ count: 3, amountMicros: 600, earliestExpiresAt: T0 + 1_000 });
      await store.settle(settled, 50);
      await store.releaseExpiredHolds(T0 + 1_000);
      expect(await store.holdTotals!()).toEqual({ count: 1, amountMicros: 100, earliestExpiresAt: T0 + 3_000 });
    });

    it('does not bill a request whose hold was released because it never settled (a crash after its first byte)', async () => {
      const { store } = context;
      const account = await store.createAccount({ name: 'E', balanceMicros: 2_000 });
      await store.reserve(account.id, 1_505, { expiresAt: T0 + 60_000 });
      expect(await store.reserve(account.id, 1_000)).toBeUndefined();
      await store.releaseExpiredHolds(T0 + 60_000);
      expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 2_000, reservedMicros: 0 });
      expect(await store.reserve(account.id, 1_000)).toMatchObject({ amountMicros: 1_000 });
    });

    it('sweeps expired holds on its own timer while open, and stops at close', async () => {
      useSweepFakeTimers(T0);
      let clock = T0;
      const store = await context.createStore({ now: () => clock, holdSweepIntervalMs: 10_000 });
      const account = await store.createAccount({ name: 'E', balanceMicros: 1000 });
      await store.reserve(account.id, 400, { expiresAt: T0 + 15_000 });
      clock = T0 + 10_000;
      await jest.advanceTimersByTimeAsync(10_000);
      expect(await store.getAccount(account.id)).toMatchObject({ reservedMicros: 400 });
      clock = T0 + 20_000;
      await jest.advanceTimersByTimeAsync(10_000);
      expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 1000, reservedMicros: 0 });
      await store.close();
      expect(jest.getTimerCount()).toBe(0);
    });
  });
}
