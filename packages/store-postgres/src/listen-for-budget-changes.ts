import type { BalanceLeases } from './create-balance-leases';
import { BUDGETS_CHANNEL } from './create-budget-methods';
import type { NotificationListener } from './listen-notifications';

/**
 * Leases serve holds only while budget changes are announced to this instance (`BUDGETS_CHANNEL`):
 * an announced change suspends the account's lease, so its next holds are checked against the
 * budgets. Resolves once the first `LISTEN` is in place or failed (leases then wait for it).
 */
export function listenForBudgetChanges(notifications: NotificationListener, leases: BalanceLeases): Promise<void> {
  return new Promise(resolve => {
    notifications.subscribe({
      channel: BUDGETS_CHANNEL,
      onMessage: accountId => void leases.suspend(accountId).catch(() => undefined),
      onListening: () => {
        leases.setAnnounced(true);
        resolve();
      },
      onLost: () => {
        leases.setAnnounced(false);
        resolve();
      },
    });
  });
}
