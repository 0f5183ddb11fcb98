import type { AlertDeliveryLog } from '@signalbox/accounts';
import {
  ALERT_DELIVERY_COLUMNS,
  ALERT_DELIVERY_DELETE_CHUNK,
  alertDeliveryRowValues,
  deleteAlertDeliveriesChunkSQL,
  toAlertDelivery,
} from '@signalbox/accounts/sql';
import { deleteInChunks } from './delete-in-chunks';
import type { StoreContext } from './store-context';

/**
 * The alert delivery log on SQLite: one row per attempt, read newest first. Retention deletes in
 * chunks, each its own transaction, as the ledger's does.
 */
export function createAlertDeliveryMethods({ database, transaction }: StoreContext): AlertDeliveryLog {
  const columns = ALERT_DELIVERY_COLUMNS.join(', ');
  const insert = database.prepare(`INSERT INTO alert_deliveries (${columns}) VALUES (${ALERT_DELIVERY_COLUMNS.map(() => '?').join(', ')})`);
  const select = database.prepare(`SELECT ${columns} FROM alert_deliveries ORDER BY seq DESC LIMIT ?`);
  const deleteChunk = database.prepare(deleteAlertDeliveriesChunkSQL('?'));
  return {
    async recordAlertDelivery(delivery) {
      insert.run(...alertDeliveryRowValues(delivery));
    },
    async listAlertDeliveries({ limit }) {
      return select.all(Math.max(1, Math.floor(limit))).map(toAlertDelivery);
    },
    deleteAlertDeliveriesBefore: before => deleteInChunks(transaction, deleteChunk, before, ALERT_DELIVERY_DELETE_CHUNK),
  };
}
