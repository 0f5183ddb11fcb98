import type { AlertDelivery } from '../alerts/alert-delivery-log';

/** The `alert_deliveries` columns, in the order `alertDeliveryRowValues` gives them. */
export const ALERT_DELIVERY_COLUMNS = ['id', 'alert_id', 'alert_type', 'target', 'attempt', 'outcome', 'http_status', 'error', 'time'] as const;

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
