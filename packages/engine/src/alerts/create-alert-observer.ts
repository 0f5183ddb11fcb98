import type { AccountStore } from '@signalbox/accounts';
import type { EngineObserver, ExchangeWatcher } from '../observation/engine-observer';
import type { HealthMark } from '../upstreams/health-store';
import type { AlertRules } from './alert';
import type { AlertMonitor } from './create-alert-monitor';

export type AlertObserverOptions = {
  rules: AlertRules;
  monitor: AlertMonitor;
  /** Where a charged account's new balance and budgets are read, once per batch of its charges. */
  store: Pick<AccountStore, 'getAccount' | 'listBudgets'>;
  /** Runs the checks of the accounts charged since the last run, off the request path. Default `setImmediate`. */
  schedule?: (work: () => void) => void;
  /** Told about a check that failed (the store unreachable); the next charge checks again. */
  onError(error: unknown): void;
  /** Given each account check as it starts, so a host can wait for them (`Alerts.idle`). */
  track?: (check: Promise<void>) => void;
};

/**
 * Watches for the events alerts are about, where they happen: a charge committed (the account's
 * balance and budgets are read once for all the charges of a batch: no polling), a credential
 * disabled or enabled, a circuit opened or closed. The monitor decides what fires.
 */
export function createAlertObserver(options: AlertObserverOptions): EngineObserver {
  const { rules, monitor } = options;
  const schedule = options.schedule ?? (work => void setImmediate(work));
  const charged = new Set<string>();
  const checkCharged = () => {
    const accountIds = [...charged];
    charged.clear();
    for (const accountId of accountIds) {
      const check = checkAccount(options, accountId).catch(options.onError);
      options.track?.(check);
    }
  };
  const watcher: ExchangeWatcher = {
    recorded(record) {
      if (record.accountId === undefined || record.costMicros <= 0) return;
      if (charged.size === 0) schedule(checkCharged);
      charged.add(record.accountId);
    },
  };
  const watchesMoney = rules.balanceBelowMicros !== undefined || rules.budgetSpentPercent !== undefined;
  return {
    ...(watchesMoney && { watchExchange: () => watcher }),
    upstreamHealthChanged(mark) {
      observeHealth(rules, monitor, mark);
    },
  };
}

async function checkAccount(options: AlertObserverOptions, accountId: string): Promise<void> {
  const { rules, monitor, store } = options;
  if (rules.balanceBelowMicros !== undefined) {
    const threshold = rules.balanceBelowMicros;
    const account = await store.getAccount(accountId);
    if (account) {
      monitor.update(`balance:${accountId}`, account.balanceMicros < threshold, () => ({
        type: 'balance.below',
        data: { accountId, accountName: account.name, balance: account.balanceMicros / 1_000_000, balanceMicros: account.balanceMicros, thresholdMicros: threshold },
      }));
    }
  }
  if (rules.budgetSpentPercent === undefined) return;
  const percent = rules.budgetSpentPercent;
  for (const budget of await store.listBudgets(accountId)) {
    const spentPercent = budget.limitMicros === 0 ? 100 : (100 * budget.spentMicros) / budget.limitMicros;
    monitor.update(`budget:${accountId}:${budget.keyId ?? ''}:${budget.period}`, spentPercent >= percent, () => ({
      type: 'budget.spent',
      data: {
        accountId, keyId: budget.keyId ?? null, period: budget.period, limitMicros: budget.limitMicros,
        spentMicros: budget.spentMicros, spentPercent: Math.floor(spentPercent), thresholdPercent: percent,
      },
    }));
  }
}

function observeHealth(rules: AlertRules, monitor: AlertMonitor, mark: HealthMark): void {
  if (rules.credentialDisabled && (mark.kind === 'disabled' || mark.kind === 'enabled')) {
    const { upstream, credential } = mark;
    monitor.update(`credential:${upstream}:${credential}`, mark.kind === 'disabled', () => ({
      type: 'credential.disabled',
      data: { upstream, credential, reason: mark.kind === 'disabled' ? mark.reason : null },
    }));
  }
  if (rules.circuitOpen && (mark.kind === 'circuit-open' || mark.kind === 'circuit-closed')) {
    const { upstream } = mark;
    const credential = mark.credential ?? null;
    monitor.update(`circuit:${upstream}:${credential ?? ''}`, mark.kind === 'circuit-open', () => ({
      type: 'circuit.open',
      data: { upstream, credential, until: mark.kind === 'circuit-open' ? new Date(mark.until).toISOString() : null },
    }));
  }
}
