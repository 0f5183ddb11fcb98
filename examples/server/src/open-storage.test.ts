import type { AccountStore, AlertDelivery } from '@signalbox/accounts';
import { parseGatewayConfig } from '@signalbox/engine';
import { codecs } from './codecs';
import { createDefaultConfig } from './default-config';
import { storeRetention } from './open-server-resources';
import { openStorage } from './open-storage';

const DAY = 86_400_000;
const T0 = 1_767_225_600_000;
/** The account store's sweep runs once a minute. */
const SWEEP_INTERVAL_MS = 60_000;

const delivery = (id: string, time: number): AlertDelivery => ({
  id, alertId: 'alrt_1', alertType: 'balance.below', target: 'http://127.0.0.1:9/hook', attempt: 1, outcome: 'delivered', httpStatus: 204, error: null, time,
});

/** Opens in-memory storage with the retention of `config`'s fields, writes entries 4 to 1 days older than T0 (in the order they happened), and runs one sweep at T0. */
async function sweptWith(fields: Record<string, unknown>): Promise<{ auditDaysOld: number[]; deliveryDaysOld: number[] }> {
  const config = parseGatewayConfig({ ...createDefaultConfig('http://127.0.0.1:9'), ...fields }, { codecs });
  const { store } = await openStorage({ storage: { kind: 'memory' } }, storeRetention(config));
  try {
    for (const days of [4, 3, 2, 1]) {
      await store.appendAudit({ time: T0 - days * DAY, actor: 'admin-token', entityType: 'key', entityId: `key_${days}`, action: 'update' });
      await store.recordAlertDelivery(delivery(`adl_${days}`, T0 - days * DAY));
    }
    await jest.advanceTimersByTimeAsync(SWEEP_INTERVAL_MS);
    return { auditDaysOld: await auditAges(store), deliveryDaysOld: (await store.listAlertDeliveries({ limit: 10 })).map(row => Math.round((T0 - row.time) / DAY)) };
  } finally {
    await store.close();
  }
}

async function auditAges(store: AccountStore): Promise<number[]> {
  const page = await store.listAudit({}, { limit: 10 });
  return page.entries.map(entry => Math.round((T0 - entry.time) / DAY)).sort();
}

describe('openStorage: the retention the config sets', () => {
  beforeEach(() => jest.useFakeTimers({ now: T0 - SWEEP_INTERVAL_MS }));
  afterEach(() => jest.useRealTimers());

  it('passes audit.retentionDays and alertDeliveries.retentionDays to the store, whose sweep then deletes what is older', async () => {
    const swept = await sweptWith({ audit: { retentionDays: 2 }, alertDeliveries: { retentionDays: 3 } });
    expect(swept.auditDaysOld).toEqual([1, 2]);
    expect(swept.deliveryDaysOld.sort()).toEqual([1, 2, 3]);
  });

  it('keeps 400 days of audit log and 30 of alert deliveries when the config says nothing', async () => {
    const swept = await sweptWith({});
    expect(swept.auditDaysOld).toEqual([1, 2, 3, 4]);
    expect(swept.deliveryDaysOld.sort()).toEqual([1, 2, 3, 4]);
  });

  it('refuses a retention that is not a whole number of days above 0', () => {
    expect(() => parseGatewayConfig({ ...createDefaultConfig('http://127.0.0.1:9'), audit: { retentionDays: 0 } }, { codecs })).toThrow(/audit\.retentionDays/);
    expect(() => parseGatewayConfig({ ...createDefaultConfig('http://127.0.0.1:9'), alertDeliveries: { retentionDays: 1.5 } }, { codecs })).toThrow(/alertDeliveries\.retentionDays/);
  });
});
