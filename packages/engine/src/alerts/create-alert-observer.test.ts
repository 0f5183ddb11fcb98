import { createMemoryAccountStore } from '@signalbox/accounts';
import type { Alert } from './alert';
import { createAlertMonitor } from './create-alert-monitor';
import { createAlertObserver } from './create-alert-observer';
import type { UsageRecord } from '../usage/usage-record';

const T0 = Date.UTC(2026, 4, 17, 9, 30);

async function setUp() {
  const store = createMemoryAccountStore({ holdSweepIntervalMs: 0, now: () => T0 });
  const fired: Alert[] = [];
  const monitor = createAlertMonitor({ now: () => T0, fire: alert => fired.push(alert) });
  const scheduled: Array<() => void> = [];
  const observer = createAlertObserver({
    rules: { balanceBelowMicros: 1_000, budgetSpentPercent: 80, credentialDisabled: true, circuitOpen: true },
    monitor,
    store,
    schedule: work => scheduled.push(work),
    onError: error => {
      throw error;
    },
  });
  const account = await store.createAccount({ name: 'Team', balanceMicros: 3_000 });
  /** Charges the account as a finished request would, tells the observer, and runs its check. */
  const charge = async (costMicros: number, keyId?: string) => {
    const hold = (await store.reserve(account.id, costMicros, keyId === undefined ? {} : { keyId }))!;
    await store.settle(hold, costMicros);
    observer.watchExchange!({ requestId: 'req_1', protocol: 'openai-chat', startedAt: T0, headers: undefined })!.recorded!({ accountId: account.id, costMicros } as UsageRecord);
    for (const work of scheduled.splice(0)) work();
    await new Promise(resolve => setImmediate(resolve));
  };
  return { store, fired, monitor, observer, account, charge };
}

describe('alerts fire once per crossing', () => {
  it('fires a low balance once while it stays low, again after a top-up and a new fall, and keeps it active until then', async () => {
    const { store, fired, monitor, account, charge } = await setUp();
    await charge(1_500);
    expect(fired).toEqual([]);
    await charge(600);
    await charge(100);
    await charge(100);
    expect(fired).toEqual([expect.objectContaining({ type: 'balance.below', data: expect.objectContaining({ accountId: account.id, balanceMicros: 900, thresholdMicros: 1_000 }) })]);
    expect(monitor.activeAlerts()).toHaveLength(1);
    await store.adjustBalance(account.id, 5_000);
    await charge(1);
    expect(monitor.activeAlerts()).toEqual([]);
    await charge(5_000);
    expect(fired.map(alert => alert.type)).toEqual(['balance.below', 'balance.below']);
    expect(fired[0]!.id).not.toBe(fired[1]!.id);
  });

  it("fires a budget's spend past its share once, not on every request after", async () => {
    const { store, fired, account, charge } = await setUp();
    await store.adjustBalance(account.id, 100_000);
    const { key } = await store.createKey({ accountId: account.id, name: 'k' });
    await store.setBudget({ accountId: account.id, keyId: key.id, period: 'day', limitMicros: 1_000 });
    await charge(700, key.id);
    expect(fired).toEqual([]);
    await charge(100, key.id);
    await charge(50, key.id);
    await charge(50, key.id);
    expect(fired).toEqual([expect.objectContaining({ type: 'budget.spent', data: expect.objectContaining({ keyId: key.id, period: 'day', spentPercent: 80, thresholdPercent: 80 }) })]);
  });

  it('fires a disabled credential and an open circuit once each, and again only after they recovered', async () => {
    const { fired, monitor, observer } = await setUp();
    const disabled = { kind: 'disabled', upstream: 'openai', credential: 'primary', reason: 'upstream-401' } as const;
    observer.upstreamHealthChanged!(disabled);
    observer.upstreamHealthChanged!(disabled);
    observer.upstreamHealthChanged!({ kind: 'circuit-open', upstream: 'openai', until: T0 + 30_000 });
    observer.upstreamHealthChanged!({ kind: 'circuit-open', upstream: 'openai', until: T0 + 60_000 });
    expect(fired.map(alert => [alert.type, alert.data])).toEqual([
      ['credential.disabled', { upstream: 'openai', credential: 'primary', reason: 'upstream-401' }],
      ['circuit.open', { upstream: 'openai', credential: null, until: new Date(T0 + 30_000).toISOString() }],
    ]);
    observer.upstreamHealthChanged!({ kind: 'enabled', upstream: 'openai', credential: 'primary' });
    observer.upstreamHealthChanged!({ kind: 'circuit-closed', upstream: 'openai' });
    expect(monitor.activeAlerts()).toEqual([]);
    observer.upstreamHealthChanged!(disabled);
    expect(fired).toHaveLength(3);
  });
});
