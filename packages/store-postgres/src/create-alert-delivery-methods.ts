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

const COLUMNS = ALERT_DELIVERY_COLUMNS.join(', ');
const INSERT = `INSERT INTO alert_deliveries (${COLUMNS}) VALUES (${ALERT_DELIVERY_COLUMNS.map((_column, index) => `$${index + 1}`).join(', ')})`;
const SELECT = `SELECT ${COLUMNS} FROM alert_deliveries ORDER BY seq DESC LIMIT $1`;
const DELETE_CHUNK = deleteAlertDeliveriesChunkSQL('$1');

/** The alert delivery log on PostgreSQL: one row per attempt, read newest first; retention deletes in chunks. */
export function createAlertDeliveryMethods({ sql }: StoreContext): AlertDeliveryLog {
  return {
    async recordAlertDelivery(delivery) {
      await sql.rows(INSERT, alertDeliveryRowValues(delivery));
    },
    async listAlertDeliveries({ limit }) {
      return (await sql.rows(SELECT, [Math.max(1, Math.floor(limit))])).map(toAlertDelivery);
    },
    deleteAlertDeliveriesBefore: before => deleteInChunks(sql, DELETE_CHUNK, before, ALERT_DELIVERY_DELETE_CHUNK),
  };
}
