import type { AlertDelivery } from '../alerts/alert-delivery-log';

/** The `alert_deliveries` columns, in the order `alertDeliveryRowValues` gives them. */
export const ALERT_DELIVERY_COLUMNS = ['id', 'alert_id', 'alert_type', 'target', 'attempt', 'outcome', 'http_status', 'error', 'time'] as const;

/** How many old attempts one retention step deletes, so a large first sweep never holds a lock for long. */
export const ALERT_DELIVERY_DELETE_CHUNK = 5000;

/**
 * One retention step: of the `ALERT_DELIVERY_DELETE_CHUNK` oldest attempts by `seq` (the primary
 * key, so no other index is read), those made before the time bound to `placeholder`.
 */
export function deleteAlertDeliveriesChunkSQL(placeholder: string): string {
  return `DELETE FROM alert_deliveries WHERE seq IN (SELECT seq FROM (SELECT seq, time FROM alert_deliveries ORDER BY seq LIMIT ${ALERT_DELIVERY_DELETE_CHUNK}) oldest WHERE time < ${placeholder})`;
}

export function alertDeliveryRowValues(delivery: AlertDelivery): Array<string | number | null> {
  return [delivery.id, delivery.alertId, delivery.alertType, delivery.target, delivery.attempt, delivery.outcome, delivery.httpStatus, delivery.error, delivery.time];
}

export function toAlertDelivery(row: Record<string, unknown>): AlertDelivery {
  return {
    id: String(row['id']),
    alertId: String(row['alert_id']),
    alertType: String(row['alert_type']),
    target: String(row['target']),
    attempt: Number(row['attempt']),
    outcome: row['outcome'] as AlertDelivery['outcome'],
    httpStatus: row['http_status'] === null ? null : Number(row['http_status']),
    error: row['error'] === null ? null : String(row['error']),
    time: Number(row['time']),
  };
}
