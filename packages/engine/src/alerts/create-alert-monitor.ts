import { createId } from '@signalbox/core';
import type { Alert, AlertType } from './alert';

/** What an alert says, before the monitor gives it an id and a time. */
export type AlertContent = { type: AlertType; data: Alert['data'] };

/**
 * Alerts by what they are about (`subject`: an account's balance, one budget, one credential, one
 * circuit): told whether each condition holds now, it fires once when a condition starts to hold
 * and not again until it has stopped holding (once per crossing, not per request or per check).
 */
export type AlertMonitor = {
  update(subject: string, holds: boolean, content: () => AlertContent): void;
  /** The alerts whose condition still holds, oldest first: what the panel's banner shows. */
  activeAlerts(): Alert[];
};

export function createAlertMonitor(options: { now(): number; fire(alert: Alert): void }): AlertMonitor {
  const active = new Map<string, Alert>();
  return {
    update(subject, holds, content) {
      if (!holds) {
        active.delete(subject);
        return;
      }
      if (active.has(subject)) return;
      const alert: Alert = { id: createId('alrt_'), ...content(), createdAt: new Date(options.now()).toISOString() };
      active.set(subject, alert);
      options.fire(alert);
    },
    activeAlerts() {
      return [...active.values()].map(alert => ({ ...alert, data: { ...alert.data } }));
    },
  };
}
