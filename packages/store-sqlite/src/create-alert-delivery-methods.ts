import type { AlertDeliveryLog } from '@signalbox/accounts';
import { ALERT_DELIVERY_COLUMNS, alertDeliveryRowValues, toAlertDelivery } from '@signalbox/accounts/sql';
import type { StoreContext } from './store-context';

/** The alert delivery log on SQLite: one row per attempt, read newest first. */
export function createAlertDeliveryMethods({ database }: StoreContext): AlertDeliveryLog {
  const columns = ALERT_DELIVERY_COLUMNS.join(', ');
  const insert = database.prepare(`INSERT INTO alert_deliveries (${columns}) VALUES (${ALERT_DELIVERY_COLUMNS.map(() => '?').join(', ')})`);
  const select = database.prepare(`SELECT ${columns} FROM alert_deliveries ORDER BY seq DESC LIMIT ?`);
  return {
    async recordAlertDelivery(delivery) {
      insert.run(...alertDeliveryRowValues(delivery));
    },
    async listAlertDeliveries({ limit }) {
      return select.all(Math.max(1, Math.floor(limit))).map(toAlertDelivery);
    },
  };
}
