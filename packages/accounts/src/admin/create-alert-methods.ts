import type { AlertDelivery } from '../alerts/alert-delivery-log';
import type { AccountStore } from '../store/account-store';
import type { ConsoleIdentity } from './console-identity';
import { requireAdmin } from './console-scope';

/** An alert whose condition holds now, as the gateway raised it (the shape of its webhook payload). */
export type ConsoleAlert = { id: string; type: string; createdAt: string; data: Record<string, string | number | null> };

/** How many delivery attempts `listAlerts` shows. */
const DELIVERIES_SHOWN = 100;

/** The alerts console: what is active (the panel's banner) and the latest delivery attempts; the operator's only. */
export function createAlertMethods(store: AccountStore, active: (() => readonly ConsoleAlert[]) | undefined) {
  return {
    /** Admin only. `{ active, deliveries }`: the alerts in force, and the latest webhook attempts, newest first. */
    async listAlerts(identity: ConsoleIdentity) {
      requireAdmin(identity, 'read alerts');
      const deliveries = await store.listAlertDeliveries({ limit: DELIVERIES_SHOWN });
      return { active: (active?.() ?? []).map(alert => ({ ...alert })), deliveries: deliveries.map(presentDelivery) };
    },
  };
}

function presentDelivery(delivery: AlertDelivery) {
  return { ...delivery, time: new Date(delivery.time).toISOString() };
}
