import type { AccountStore } from '@signalbox/accounts';
import { createAlerts, type AlertRules, type Alerts, type Clock, type WebhookTarget } from '@signalbox/engine';
import type { GatewayLogger } from '@signalbox/express';
import type { ConfigFileAlerts } from './read-config-file-alerts';
import { StartUpError } from './start-up-error';

/** Alerts as the example server is given them: thresholds and a webhook with its secret (`ExampleServerOptions.alerts`). */
export type AlertSettings = { rules: AlertRules; webhook: WebhookTarget };

/**
 * The config file's `alerts` section with its webhook secret read from the environment variable it
 * names; a missing or empty variable stops the start, naming the variable (never a value).
 */
export function readAlertSettings(section: ConfigFileAlerts | undefined, environment: NodeJS.ProcessEnv): AlertSettings | undefined {
  if (!section) return undefined;
  const secret = environment[section.webhook.secretEnv];
  if (!secret) throw new StartUpError(`alerts.webhook.secretEnv: the environment variable ${section.webhook.secretEnv} is not set; set it to the webhook's signing secret`);
  return {
    webhook: { url: section.webhook.url, secret },
    rules: {
      ...(section.balanceBelow !== undefined && { balanceBelowMicros: Math.round(section.balanceBelow * 1_000_000) }),
      ...(section.budgetSpentPercent !== undefined && { budgetSpentPercent: section.budgetSpentPercent }),
      credentialDisabled: section.credentialDisabled,
      circuitOpen: section.circuitOpen,
    },
  };
}

/** Alerts on the server's store and clock; a delivery given up or a failed check is a warning (its host, never its URL or secret). */
export function openAlerts(settings: AlertSettings, store: AccountStore, clock: Pick<Clock, 'now' | 'sleep'>, logger: GatewayLogger | undefined): Alerts {
  const host = new URL(settings.webhook.url).host;
  return createAlerts({
    rules: settings.rules,
    webhook: settings.webhook,
    store,
    clock: { now: () => clock.now(), sleep: ms => clock.sleep(ms) },
    onError: error => logger?.warn({ err: error, webhook: host }, 'an alert could not be checked or delivered'),
  });
}
