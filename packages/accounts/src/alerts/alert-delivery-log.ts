/** One attempt to deliver an alert's webhook, as the delivery log keeps it: never the secret or the signature. */
export type AlertDelivery = {
  id: string;
  alertId: string;
  /** The alert's `type` (`balance.below`, `budget.spent`, `credential.disabled`, `circuit.open`). */
  alertType: string;
  /** Where it was sent: the webhook URL's origin and path, without its query. */
  target: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** `delivered` (a 2xx), `retrying` (another attempt follows) or `failed` (the last attempt failed). */
  outcome: 'delivered' | 'retrying' | 'failed';
  /** The receiver's status, or `null` when no answer came (a network error, a timeout). */
  httpStatus: number | null;
  /** Why it failed, bounded; `null` when delivered. */
  error: string | null;
  /** Unix milliseconds of the attempt. */
  time: number;
};

/** How many days of alert delivery attempts a store keeps unless told otherwise. */
export const DEFAULT_ALERT_DELIVERY_RETENTION_DAYS = 30;

/** Where every store keeps the alert delivery log (the `alert_deliveries` table of the SQL stores). */
export type AlertDeliveryLog = {
  recordAlertDelivery(delivery: AlertDelivery): Promise<void>;
  /** The latest attempts, newest first. */
  listAlertDeliveries(options: { limit: number }): Promise<AlertDelivery[]>;
  /**
   * Deletes attempts made before `before` (unix ms), oldest written first, and says how many: the
   * retention sweep. An attempt written after a younger one waits for it, so none goes early.
   */
  deleteAlertDeliveriesBefore(before: number): Promise<number>;
};

/** Deliveries kept in process memory (the memory store's), at most `max` of them, the oldest dropped first. */
export function createMemoryAlertDeliveryLog(max = 10_000): AlertDeliveryLog {
  const deliveries: AlertDelivery[] = [];
  return {
    async recordAlertDelivery(delivery) {
      deliveries.push({ ...delivery });
      if (deliveries.length > max) deliveries.shift();
    },
    async listAlertDeliveries({ limit }) {
      return deliveries.slice(-Math.max(1, limit)).reverse().map(delivery => ({ ...delivery }));
    },
    async deleteAlertDeliveriesBefore(before) {
      const kept = deliveries.findIndex(delivery => delivery.time >= before);
      return deliveries.splice(0, kept === -1 ? deliveries.length : kept).length;
    },
  };
}
