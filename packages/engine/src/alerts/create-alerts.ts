import type { AccountStore } from '@signalbox/accounts';
import type { EngineObserver } from '../observation/engine-observer';
import type { Alert, AlertRules } from './alert';
import { createAlertMonitor } from './create-alert-monitor';
import { createAlertObserver } from './create-alert-observer';
import { deliverWebhook, type WebhookRuntime, type WebhookTarget } from './deliver-webhook';

export type AlertsOptions = {
  rules: AlertRules;
  webhook: WebhookTarget;
  /** Where balances and budgets are read and each delivery attempt is logged. */
  store: Pick<AccountStore, 'getAccount' | 'listBudgets' | 'recordAlertDelivery'>;
  /** The clock deliveries are signed and wait by. */
  clock: Pick<WebhookRuntime, 'now' | 'sleep'>;
  random?: WebhookRuntime['random'];
  send?: WebhookRuntime['send'];
  /** Told about a failed check or an alert whose delivery failed (its attempts are in the delivery log). */
  onError(error: unknown): void;
};

/** Alerts as a host mounts them: the engine observer that raises them, and what is active now. */
export type Alerts = {
  observer: EngineObserver;
  /** The alerts whose condition still holds: the panel's banner. */
  activeAlerts(): Alert[];
  /** Resolves once every check and delivery started so far has ended (delivered or given up). */
  idle(): Promise<void>;
};

/**
 * Threshold alerts delivered as signed webhooks (`deliverWebhook`), each fired once per crossing
 * (`createAlertMonitor`) by the events it is about (`createAlertObserver`); deliveries run in the
 * background, never on a request's path.
 */
export function createAlerts(options: AlertsOptions): Alerts {
  /** Deliveries and account checks in flight, and checks scheduled but not yet run. */
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const runtime: WebhookRuntime = {
    ...options.clock,
    ...(options.random && { random: options.random }),
    ...(options.send && { send: options.send }),
    record: delivery => options.store.recordAlertDelivery(delivery),
  };
  const fire = (alert: Alert) => {
    const delivery = deliverWebhook(options.webhook, alert, runtime).then(
      delivered => {
        if (!delivered) options.onError(new Error(`The ${alert.type} alert ${alert.id} could not be delivered; its attempts are in the alert delivery log.`));
      },
      options.onError,
    );
    track(delivery);
  };
  const monitor = createAlertMonitor({ now: options.clock.now, fire });
  return {
    observer: createAlertObserver({
      rules: options.rules,
      monitor,
      store: options.store,
      onError: options.onError,
      track,
      schedule: work => track(new Promise(resolve => setImmediate(() => resolve(work())))),
    }),
    activeAlerts: monitor.activeAlerts,
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
