import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayError } from '@signalbox/core';
import { createSQLiteAccountStore } from './create-sqlite-account-store';
import { LedgerThreadLostError, spawnLedgerThread, startLedgerThread } from './start-ledger-thread';

const directory = mkdtempSync(join(tmpdir(), 'signalbox-ledger-thread-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('startLedgerThread', () => {
  it('reports a thread that could not open the file as lost, and rejects the call waiting for it', async () => {
    const lost: Error[] = [];
    // A folder is not a database: the thread fails as it opens it.
    const thread = startLedgerThread(spawnLedgerThread({ path: directory, busyTimeoutMs: 0 }), error => lost.push(error));
    const waiting = thread.call('listBalanceEvents', ['acct_none', { limit: 1 }]);

    await expect(waiting).rejects.toBeInstanceOf(LedgerThreadLostError);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.message).toMatch(/ledger thread stopped/);
    expect(thread.running).toBe(false);
    await expect(thread.call('listBalanceEvents', ['acct_none', { limit: 1 }])).rejects.toBeInstanceOf(LedgerThreadLostError);
  });

  it('answers with the GatewayError a call threw, code and status kept, and closes without being reported lost', async () => {
    const path = join(directory, 'ledger.sqlite');
    // The store creates the schema; the thread only opens the file.
    await createSQLiteAccountStore({ path, serverSecret: 'ledger-thread-unit', holdSweepIntervalMs: 0 }).close();
    const onLost = jest.fn();
    const thread = startLedgerThread(spawnLedgerThread({ path, busyTimeoutMs: 1000 }), onLost);

    const refused = thread.call('listUsage', [{}, { limit: 1, cursor: 'bogus!' }]);
    await expect(refused).rejects.toBeInstanceOf(GatewayError);
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    await expect(thread.call('listUsage', [{}, { limit: 1 }])).resolves.toEqual({ entries: [] });
    await thread.close();
    expect(thread.running).toBe(false);
    expect(onLost).not.toHaveBeenCalled();
  });
});
