import { DEFAULT_ALERT_DELIVERY_RETENTION_DAYS, type AlertDelivery } from '@signalbox/accounts';
import { useSweepFakeTimers, type ContractContext } from './contract-context';

const DAY = 86_400_000;

const attempt = (number: number, outcome: AlertDelivery['outcome'], httpStatus: number | null): AlertDelivery => ({
  id: `adl_${number}`, alertId: 'alrt_1', alertType: 'balance.below', target: 'http://127.0.0.1:9/hook', attempt: number,
  outcome, httpStatus, error: outcome === 'delivered' ? null : `answered ${httpStatus ?? 'nothing'}`, time: 1_767_225_600_000 + number,
});

/** The alert delivery log: every attempt kept as given, read newest first, and deleted by retention only once old. */
export function describeAlertDeliveries(context: ContractContext): void {
  describe('alert delivery log', () => {
    afterEach(() => {
      jest.useRealTimers();
    });

    it('keeps each attempt and lists the latest first, as many as asked', async () => {
      const written = [attempt(1, 'retrying', 500), attempt(2, 'retrying', null), attempt(3, 'delivered', 204)];
      for (const delivery of written) await context.store.recordAlertDelivery(delivery);
      expect(await context.store.listAlertDeliveries({ limit: 10 })).toEqual([...written].reverse());
      expect(await context.store.listAlertDeliveries({ limit: 1 })).toEqual([written[2]]);
    });

    it('deletes the attempts made before a time, and only those, saying how many', async () => {
      const written = [attempt(1, 'retrying', 500), attempt(2, 'retrying', 503), attempt(3, 'delivered', 204), attempt(4, 'delivered', 200)];
      for (const delivery of written) await context.store.recordAlertDelivery(delivery);
      expect(await context.store.deleteAlertDeliveriesBefore(written[2]!.time)).toBe(2);
      expect(await context.store.listAlertDeliveries({ limit: 10 })).toEqual([written[3], written[2]]);
      expect(await context.store.deleteAlertDeliveriesBefore(written[2]!.time)).toBe(0);
      expect(await context.store.deleteAlertDeliveriesBefore(written[3]!.time + 1)).toBe(2);
      expect(await context.store.listAlertDeliveries({ limit: 10 })).toEqual([]);
    });

    it(`deletes attempts older than the retention (default ${DEFAULT_ALERT_DELIVERY_RETENTION_DAYS} days) on its sweep timer`, async () => {
      const old = attempt(1, 'retrying', 500);
      const kept = { ...attempt(2, 'delivered', 204), time: old.time + DAY };
      useSweepFakeTimers(old.time);
      let clock = old.time;
      const store = await context.createStore({ now: () => clock, holdSweepIntervalMs: 10_000 });
      await store.recordAlertDelivery(old);
      await store.recordAlertDelivery(kept);
      clock = old.time + DEFAULT_ALERT_DELIVERY_RETENTION_DAYS * DAY + 1;
      await jest.advanceTimersByTimeAsync(10_000);
      expect(await store.listAlertDeliveries({ limit: 10 })).toEqual([kept]);
      await store.close();
    });
  });
}
