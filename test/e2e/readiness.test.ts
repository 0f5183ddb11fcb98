import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSQLiteAccountStore } from '@signalbox/store-sqlite';
import { generateAdminToken } from '@signalbox/accounts';
import { startExampleServer } from '../../examples/server/src';

/**
 * `/healthz` says the process runs; `/readyz` says whether it can serve now: its store answers.
 * A store that stops answering (here: closed under the running server) turns it 503, while
 * `/healthz` stays 200, so a load balancer takes the instance out without restarting it.
 */
describe('GET /readyz on the example server', () => {
  it('is 200 while the store answers and 503 naming the failed check once it does not, with /healthz still 200', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'signalbox-readyz-'));
    const store = createSQLiteAccountStore({ path: join(folder, 'gateway.sqlite'), serverSecret: 'readyz-secret', holdSweepIntervalMs: 0 });
    const server = await startExampleServer({ port: 0, storage: { kind: 'store', store, adminToken: generateAdminToken() }, environment: {} });
    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', checks: { store: 'ok' } }]);

      await store.close();
      const gone = await fetch(`${server.url}/readyz`);
      expect([gone.status, await gone.json()]).toEqual([503, { status: 'not-ready', checks: { store: 'failed' } }]);
      const health = await fetch(`${server.url}/healthz`);
      expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    } finally {
      await server.close(1_000);
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
