import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayError } from '@signalbox/core';
import { createSQLiteAccountStore } from './create-sqlite-account-store';
import { createLazyLedgerThread } from './create-threaded-usage-methods';
import { LedgerThreadLostError, spawnLedgerThread, startLedgerThread } from './start-ledger-thread';

const directory = mkdtempSync(join(tmpdir(), 'signalbox-ledger-thread-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('startLedgerThread', () => {
  it('reports a thread that could not open the file as lost, and rejects the call waiting for it', async () => {
    const lost: Error[] = [];
    // A folder is not a database: the thread fails as it opens it.
    const thread = startLedgerThread(spawnLedgerThread({ path: directory, busyTimeoutMs: 0, checkpointIntervalMs: 0 }), {
      onLost: error => lost.push(error),
      onCheckpointError: jest.fn(),
    });
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
    const thread = startLedgerThread(spawnLedgerThread({ path, busyTimeoutMs: 1000, checkpointIntervalMs: 10 }), { onLost, onCheckpointError: jest.fn() });

    const refused = thread.call('listUsage', [{}, { limit: 1, cursor: 'bogus!' }]);
    await expect(refused).rejects.toBeInstanceOf(GatewayError);
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    await expect(thread.call('listUsage', [{}, { limit: 1 }])).resolves.toEqual({ entries: [] });
    await thread.close();
    expect(thread.running).toBe(false);
    expect(onLost).not.toHaveBeenCalled();
  });

  it('keeps the process alive until the thread has closed, when nothing else does', async () => {
    // A process of its own (the build, as a gateway runs it), whose event loop holds nothing but the
    // thread: awaiting the close must finish (a start-up failure closes the store that way, then
    // prints why and sets the exit code).
    const path = join(directory, 'alone.sqlite');
    await createSQLiteAccountStore({ path, serverSecret: 'ledger-thread-unit', holdSweepIntervalMs: 0 }).close();
    const program = [
      `const { spawnLedgerThread, startLedgerThread } = require(${JSON.stringify(join(__dirname, '..', 'dist', 'start-ledger-thread.js'))});`,
      `const thread = startLedgerThread(spawnLedgerThread({ path: ${JSON.stringify(path)}, busyTimeoutMs: 0, checkpointIntervalMs: 10 }), {`,
      "  onLost: () => console.error('lost'), onCheckpointError: error => console.error(String(error)),",
      '});',
      "thread.close().then(() => { console.log('stopped'); process.exitCode = 3; });",
    ].join('\n');
    const result = spawnSync(process.execPath, ['--no-warnings', '--eval', program], { encoding: 'utf8', timeout: 20_000 });
    expect({ status: result.status, stdout: result.stdout.trim(), stderr: result.stderr }).toEqual({ status: 3, stdout: 'stopped', stderr: '' });
  });
});

describe('createLazyLedgerThread', () => {
  it('starts no thread until the first call, then one, and tells the store once as it starts', async () => {
    const path = join(directory, 'lazy.sqlite');
    await createSQLiteAccountStore({ path, serverSecret: 'ledger-thread-unit', holdSweepIntervalMs: 0 }).close();
    const onStart = jest.fn();
    const lazy = createLazyLedgerThread({ path, busyTimeoutMs: 0, checkpointIntervalMs: 0 }, { onStart, onLost: jest.fn(), onCheckpointError: jest.fn() });
    const written: string[] = [];
    lazy.whenIdle(() => written.push('before any thread'));
    expect({ onStart: onStart.mock.calls.length, written, current: lazy.current() }).toEqual({ onStart: 0, written: ['before any thread'], current: undefined });
    const thread = lazy.get()!;
    expect(lazy.get()).toBe(thread);
    expect(lazy.current()).toBe(thread);
    expect(onStart).toHaveBeenCalledTimes(1);
    await expect(thread.call('listUsage', [{}, { limit: 1 }])).resolves.toEqual({ entries: [] });
    await lazy.close();
    expect(lazy.get()).toBeUndefined();
    expect(lazy.current()).toBeUndefined();
    expect(onStart).toHaveBeenCalledTimes(1);
  });

  it('after a thread failed, starts none again, so the calls run on the store connection', async () => {
    let lost!: (error: Error) => void;
    const reported = new Promise<Error>(resolve => (lost = resolve));
    // A folder is not a database: the thread fails as it opens it.
    const lazy = createLazyLedgerThread(
      { path: directory, busyTimeoutMs: 0, checkpointIntervalMs: 10 },
      { onStart: jest.fn(), onLost: error => lost(error), onCheckpointError: jest.fn() },
    );
    const thread = lazy.get()!;
    await expect(thread.call('listUsage', [{}, { limit: 1 }])).rejects.toBeInstanceOf(LedgerThreadLostError);
    expect((await reported).message).toMatch(/ledger thread stopped/);
    expect(lazy.get()).toBeUndefined();
    const written: string[] = [];
    lazy.whenIdle(() => written.push('after the thread ended'));
    expect(written).toEqual(['after the thread ended']);
    await lazy.close();
  });
});
