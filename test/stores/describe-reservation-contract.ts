import type { ContractContext } from './contract-context';

/** Reserve/settle arithmetic, idempotent settle and atomic holds under concurrency. */
export function describeReservations(context: ContractContext): void {
  describe('reserve and settle', () => {
    const available = async (id: string) => {
      const account = (await context.store.getAccount(id))!;
      return account.balanceMicros - account.reservedMicros;
    };

    it('holds money: available = balance − reserved', async () => {
      const account = await context.store.createAccount({ name: 'R', balanceMicros: 1000 });
      const reservation = await context.store.reserve(account.id, 300);
      expect(reservation).toEqual({
        id: expect.any(String),
        accountId: account.id,
        amountMicros: 300,
        expiresAt: expect.any(Number),
        ownerId: expect.any(String),
      });
      expect(await context.store.getAccount(account.id)).toMatchObject({
        balanceMicros: 1000,
        reservedMicros: 300,
      });
      expect(await available(account.id)).toBe(700);
    });

    it('sees a top-up, a removal and a subscription change made through the store at once, also after the account was read', async () => {
      const account = await context.store.createAccount({ name: 'R', balanceMicros: 100 });
      expect(await context.store.getAccount(account.id)).toMatchObject({ balanceMicros: 100 });
      expect(await context.store.reserve(account.id, 101)).toBeUndefined();
      await context.store.adjustBalance(account.id, 900);
      expect(await context.store.reserve(account.id, 1000)).toMatchObject({ amountMicros: 1000 });
      await context.store.adjustBalance(account.id, -500);
      expect(await context.store.getAccount(account.id)).toMatchObject({ balanceMicros: 500, reservedMicros: 1000 });
      expect(await context.store.reserve(account.id, 1)).toBeUndefined();
      await context.store.updateAccount(account.id, { subscription: 'inactive' });
      expect(await context.store.getAccount(account.id)).toMatchObject({ subscription: 'inactive' });
    });

    it('refuses a hold beyond what is available and changes nothing', async () => {
      const account = await context.store.createAccount({ name: 'R', balanceMicros: 1000 });
      expect(await context.store.reserve(account.id, 1001)).toBeUndefined();
      expect(await context.store.reserve(account.id, 600)).toEqual({
        id: expect.any(String),
        accountId: account.id,
        amountMicros: 600,
        expiresAt: expect.any(Number),
        ownerId: expect.any(String),
      });
      expect(await context.store.reserve(account.id, 401)).toBeUndefined();
      expect(await context.store.reserve(account.id, 400)).toEqual({
        id: expect.any(String),
        accountId: account.id,
        amountMicros: 400,
        expiresAt: expect.any(Number),
        ownerId: expect.any(String),
      });
      expect(await context.store.reserve(account.id, 1)).toBeUndefined();
      expect(await context.store.getAccount(account.id)).toMatchObject({
        balanceMicros: 1000,
        reservedMicros: 1000,
      });
      expect(await context.store.reserve('acct_missing', 1)).toBeUndefined();
    });

    it('rounds a fractional hold up to whole micro-units', async () => {
      const account = await context.store.createAccount({ name: 'R', balanceMicros: 10 });
      expect(await context.store.reserve(account.id, 2.1)).toMatchObject({ amountMicros: 3 });
      expect(await context.store.getAccount(account.id)).toMatchObject({ reservedMicros: 3 });
    });

    it('settle releases the hold and charges the real cost', async () => {
      const account = await context.store.createAccount({ name: 'R', balanceMicros: 1000 });
      const reservation = (await context.store.reserve(account.id, 300))!;
      await context.store.settle(reservation, 120);
      expect(await context.store.getAccount(account.id)).toMatchObject({
        balanceMicros: 880,
        reservedMicros: 0,
      });
    });

    it('settle charges a cost above the hold only up to the hold and reports the rest as uncovered', async () => {
      const account = await context.store.createAccount({ name: 'R', balanceMicros: 10_000 });
      const reservation = (await context.store.reserve(account.id, 8_000))!;
      expect(await context.store.settle(reservation, 30_004)).toEqual({ chargedMicros: 8_000, uncoveredMicros: 22_004 });
      expect(await context.store.getAccount(account.id)).toMatchObject({ balanceMicros: 2_000, reservedMicros: 0 });
    });

    it('settle never takes a balance below zero, even after the balance was lowered under the hold', async () => {
      const account = await context.store.createAccount({ name: 'R', balanceMicros: 100 });
      const reservation = (await context.store.reserve(account.id, 100))!;
      await context.store.adjustBalance(account.id, -70);
      expect(await context.store.settle(reservation, 100)).toEqual({ chargedMicros: 30, uncoveredMicros: 70 });
      expect(await context.store.getAccount(account.id)).toMatchObject({ balanceMicros: 0, reservedMicros: 0 });
      expect(await context.store.reserve(account.id, 1)).toBeUndefined();
    });

    it('settling twice does nothing the second time', async () => {
      const account = await context.store.createAccount({ name: 'R', balanceMicros: 1000 });
      const reservation = (await context.store.reserve(account.id, 200))!;
      expect(await context.store.settle(reservation, 150)).toEqual({ chargedMicros: 150, uncoveredMicros: 0 });
      expect(await context.store.settle(reservation, 150)).toBeUndefined();
      expect(await context.store.settle(reservation, 999)).toBeUndefined();
      expect(await context.store.getAccount(account.id)).toMatchObject({
        balanceMicros: 850,
        reservedMicros: 0,
      });
    });

    it('settling one hold leaves the others held', async () => {
      const account = await context.store.createAccount({ name: 'R', balanceMicros: 1000 });
      const first = (await context.store.reserve(account.id, 200))!;
      const second = (await context.store.reserve(account.id, 300))!;
      expect(first.id).not.toBe(second.id);
      await context.store.settle(first, 50);
      expect(await context.store.getAccount(account.id)).toMatchObject({
        balanceMicros: 950,
        reservedMicros: 300,
      });
      await context.store.adjustBalance(account.id, 100);
      expect(await available(account.id)).toBe(750);
    });

    it('lets exactly 50 of 200 concurrent 1-unit holds through against a balance of 50', async () => {
      const account = await context.store.createAccount({ name: 'R', balanceMicros: 50 });
      const results = await Promise.all(
        Array.from({ length: 200 }, () => context.store.reserve(account.id, 1)),
      );
      const granted = results.filter(result => result !== undefined);
      expect(granted).toHaveLength(50);
      expect(new Set(granted.map(reservation => reservation.id)).size).toBe(50);
      expect(await context.store.getAccount(account.id)).toMatchObject({
        balanceMicros: 50,
        reservedMicros: 50,
      });

      await Promise.all(granted.map(reservation => context.store.settle(reservation, 1)));
      expect(await context.store.getAccount(account.id)).toMatchObject({
        balanceMicros: 0,
        reservedMicros: 0,
      });
    });
  });
}
