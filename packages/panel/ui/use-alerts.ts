import type { AlertDelivery as StoredAlertDelivery, ConsoleAlert } from '@signalbox/accounts';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api-client';
import { formatFailure } from './format';

export type ActiveAlert = ConsoleAlert;
/** A delivery attempt as the alerts API answers it: the store's record with its time in ISO 8601. */
export type AlertDelivery = Omit<StoredAlertDelivery, 'time'> & { time: string };

/** How often the alerts are read again: they begin and end with the gateway's own events. */
const POLL_MS = 10_000;

/** The active alerts and the latest deliveries (admin sessions only; `enabled` false reads nothing). */
export function useAlerts(enabled: boolean): { active: ActiveAlert[]; deliveries: AlertDelivery[]; error: string } {
  const [state, setState] = useState<{ active: ActiveAlert[]; deliveries: AlertDelivery[]; error: string }>({ active: [], deliveries: [], error: '' });
  useEffect(() => {
    if (!enabled) return undefined;
    let stopped = false;
    const load = () =>
      api<{ active: ActiveAlert[]; deliveries: AlertDelivery[] }>('GET', '/alerts')
        .then(answer => !stopped && setState({ ...answer, error: '' }))
        .catch((failure: unknown) => !stopped && setState(previous => ({ ...previous, error: formatFailure(failure) })));
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [enabled]);
  return state;
}

/** One alert in a sentence, with the names it carries. */
export function describeAlert(alert: ActiveAlert): string {
  const data = alert.data;
  switch (alert.type) {
    case 'balance.below':
      return `Balance of ${String(data['accountName'] ?? data['accountId'])} is below ${Number(data['thresholdMicros']) / 1_000_000}`;
    case 'budget.spent':
      return `A ${String(data['period'])} budget of ${String(data['keyId'] ?? data['accountId'])} is ${String(data['spentPercent'])} % spent`;
    case 'credential.disabled':
      return `Credential ${String(data['credential'])} of ${String(data['upstream'])} is disabled`;
    case 'circuit.open':
      return `The circuit of ${String(data['upstream'])} is open`;
    default:
      return alert.type;
  }
}
