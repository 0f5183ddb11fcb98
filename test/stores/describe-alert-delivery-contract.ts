import type { AlertDelivery } from '@signalbox/accounts';
import type { ContractContext } from './contract-context';

/** The alert delivery log: every attempt kept as given, read newest first. */
export function describeAlertDeliveries(context: ContractContext): void {
  describe('alert delivery log', () => {
    it('keeps each attempt and lists the latest first, as many as asked', async () => {
      const attempt = (number: number, outcome: AlertDelivery['outcome'], httpStatus: number | null): AlertDelivery => ({
        id: `adl_${number}`, alertId: 'alrt_1', alertType: 'balance.below', target: 'http://127.0.0.1:9/hook', attempt: number,
        outcome, httpStatus, error: outcome === 'delivered' ? null : `answered ${httpStatus ?? 'nothing'}`, time: 1_767_225_600_000 + number,
      });
      const written = [attempt(1, 'retrying', 500), attempt(2, 'retrying', null), attempt(3, 'delivered', 204)];
      for (const delivery of written) await context.store.recordAlertDelivery(delivery);
      expect(await context.store.listAlertDeliveries({ limit: 10 })).toEqual([...written].reverse());
      expect(await context.store.listAlertDeliveries({ limit: 1 })).toEqual([written[2]]);
    });
  });
}
