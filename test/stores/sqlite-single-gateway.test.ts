import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountStore } from '@signalbox/accounts';
import { createSQLiteAccountStore, SingleGatewayInUseError } from '@signalbox/store-sqlite';
import { foundItem, storedResponse } from './describe-response-store-contract';
import { usageCommit } from './describe-usage-ledger-contract';

const SERVER_SECRET = 'single-gateway-test-server-secret';
const T0 = 1_767_225_600_000;
const REFRESH_MS = 1_000;
const ROOMY = { maxBytesPerAccount: 64 * 1024 * 1024 };
const directory = mkdtempSync(join(tmpdir(), 'signalbox-single-gateway-'));
let fileCount = 0;
const newFile = () => join(directory, `store-${++fileCount}.sqlite`);
const storeBuild = join(__dirname, '../../packages/store-sqlite/dist/index.js');

afterAll(() => rmSync(directory, { recursive: true, force: true }));

/**
 * A single gateway's store (holds in memory, queued response saves, its own checkpoint thread) and
 * a second connection to the same file, standing for the CLI: what another process sees and changes.
 */
describe('SQLite account store for a single gateway', () => {
  const opened: AccountStore[] = [];
  const track = (store: AccountStore) => (opened.push(store), store);
  let clock = T0;
  const openGateway = (path: string, options: { checkpointIntervalMs?: number } = {}) =>
    track(
      createSQLiteAccountStore({
        path,
        serverSecret: SERVER_SECRET,
        holdSweepIntervalMs: 0,
        singleGateway: true,
        cacheRefreshMs: REFRESH_MS,
        now: () => clock,
        ...options,
      }),
    );
  const openCli = (path: string) =>
    track(
      createSQLiteAccountStore({
        path,
        serverSecret: SERVER_SECRET,
        holdSweepIntervalMs: 0,
        now: () => clock,
      }),
    );
  beforeEach(() => {
    clock = T0;
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map(store => store.close()));
  });

  it('refuses a key disabled by another process at most cacheRefreshMs after the change, and one disabled through itself at once', async () => {
    const path = newFile();
    const gateway = openGateway(path);
    const cli = openCli(path);
    const account = await gateway.createAccount({ name: 'keys' });
    const first = await gateway.createKey({ accountId: account.id, name: 'first' });
    const second = await gateway.createKey({ accountId: account.id, name: 'second' });
    expect(await gateway.findKeyBySecret(first.secret)).toMatchObject({ status: 'active' });
    expect(await gateway.findKeyBySecret(second.secret)).toMatchObject({ status: 'active' });

    await cli.updateKey(first.key.id, { status: 'disabled' });
    clock += REFRESH_MS - 1;
    // Within the bound the cached lookup may still answer: this store looks at the file once per interval.
    expect(await gateway.findKeyBySecret(first.secret)).toMatchObject({ status: 'active' });
    clock += 1;
    expect(await gateway.findKeyBySecret(first.secret)).toMatchObject({ status: 'disabled' });

    await gateway.updateKey(second.key.id, { status: 'disabled' });
    expect(await gateway.findKeyBySecret(second.secret)).toMatchObject({ status: 'disabled' });
  });

  it('makes a top-up by another process usable at most cacheRefreshMs after it, and one through itself at once', async () => {
    const path = newFile();
    const gateway = openGateway(path);
    const cli = openCli(path);
    const account = await gateway.createAccount({ name: 'top-up', balanceMicros: 100 });
    expect(await gateway.reserve(account.id, 101)).toBeUndefined();

    await cli.adjustBalance(account.id, 400);
    clock += REFRESH_MS;
    expect(await gateway.reserve(account.id, 500)).toMatchObject({ amountMicros: 500 });

    await gateway.adjustBalance(account.id, 50);
    expect(await gateway.reserve(account.id, 50)).toMatchObject({ amountMicros: 50 });
    expect(await gateway.reserve(account.id, 1)).toBeUndefined();
  });

  it('keeps holds in its memory and writes the charge with the ledger row: the file never has a hold', async () => {
    const path = newFile();
    const gateway = openGateway(path);
    const cli = openCli(path);
    const account = await gateway.createAccount({ name: 'holds', balanceMicros: 1_000 });
    const reservation = (await gateway.reserve(account.id, 400))!;

    expect(await gateway.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 400 });
    expect(await cli.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 0 });

    const commit = usageCommit({ accountId: account.id }, { reservation, costMicros: 150 });
    expect(await gateway.commitUsage([commit, commit])).toEqual([
      { chargedMicros: 150, uncoveredMicros: 0 },
      { chargedMicros: 0, uncoveredMicros: 150 },
    ]);
    expect(await gateway.getAccount(account.id)).toMatchObject({ balanceMicros: 850, reservedMicros: 0 });
    expect(await cli.getAccount(account.id)).toMatchObject({ balanceMicros: 850, reservedMicros: 0 });
    expect((await cli.listUsage({ accountId: account.id }, { limit: 5 })).entries).toEqual([
      expect.objectContaining({ requestId: commit.entry.requestId, costMicros: 150 }),
    ]);
    expect(await gateway.settle(reservation, 10)).toBeUndefined();
  });

  it('keeps a hold whose batch rolled back, so the retry charges it once', async () => {
    const gateway = openGateway(newFile());
    const account = await gateway.createAccount({ name: 'rollback', balanceMicros: 1_000 });
    const reservation = (await gateway.reserve(account.id, 300))!;
    // A row the table refuses (no protocol: NOT NULL) rolls the whole batch back.
    const broken = usageCommit(
      { accountId: account.id, protocol: null as unknown as string },
      { reservation, costMicros: 70 },
    );
    await expect(gateway.commitUsage([broken])).rejects.toThrow(/NOT NULL/);
    expect(await gateway.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 300 });

    const fixed = { ...broken, entry: { ...broken.entry, protocol: 'openai-chat' } };
    expect(await gateway.commitUsage([fixed])).toEqual([{ chargedMicros: 70, uncoveredMicros: 0 }]);
    expect(await gateway.getAccount(account.id)).toMatchObject({ balanceMicros: 930, reservedMicros: 0 });
  });

  it('answers a conversation continued right after its save from the queue, and writes the queue after the current turn', async () => {
    const path = newFile();
    const gateway = openGateway(path);
    const cli = openCli(path);
    const account = await gateway.createAccount({ name: 'conversations' });
    const first = storedResponse(account.id, 'resp_first');
    const second = storedResponse(account.id, 'resp_second', {
      previousResponseId: 'resp_first',
      createdAt: T0 + 1,
    });
    await gateway.saveResponse(first, ROOMY);
    await gateway.saveResponse(second, ROOMY);

    // Not written yet: another process does not see them, this store does.
    expect(await cli.getResponse(account.id, 'resp_second', T0)).toBeUndefined();
    expect(await gateway.getResponse(account.id, 'resp_second', T0)).toEqual(second);
    expect(await gateway.getResponse(account.id, 'resp_first', T0)).toEqual(first);
    expect(await gateway.findItems(account.id, ['msg_out_resp_second'], T0)).toEqual(
      new Map([['msg_out_resp_second', foundItem((second.response['output'] as unknown[])[0])]]),
    );

    await gateway.saveResponse(storedResponse(account.id, 'resp_third', { createdAt: T0 + 2 }), ROOMY);
    await new Promise(resolve => setImmediate(resolve));
    expect(await cli.getResponse(account.id, 'resp_third', T0)).toMatchObject({ id: 'resp_third' });
  });

  it('applies the size cap to queued saves as it would to saves written one by one', async () => {
    const gateway = openGateway(newFile());
    const account = await gateway.createAccount({ name: 'cap' });
    const oldest = storedResponse(account.id, 'resp_oldest');
    const newest = storedResponse(account.id, 'resp_newest', { createdAt: T0 + 1 });
    const cap = {
      maxBytesPerAccount:
        JSON.stringify(newest.inputItems).length + JSON.stringify(newest.response).length + 10,
    };
    await gateway.saveResponse(oldest, cap);
    await gateway.saveResponse(newest, cap);
    expect(await gateway.getResponse(account.id, 'resp_oldest', T0)).toBeUndefined();
    expect(await gateway.getResponse(account.id, 'resp_newest', T0)).toEqual(newest);
  });

  it('writes queued saves at close', async () => {
    const path = newFile();
    const gateway = openGateway(path);
    const account = await gateway.createAccount({ name: 'close' });
    await gateway.saveResponse(storedResponse(account.id, 'resp_closing'), ROOMY);
    await gateway.close();
    expect(await openCli(path).getResponse(account.id, 'resp_closing', T0)).toMatchObject({
      id: 'resp_closing',
    });
  });

  it('refuses to open as a second single gateway on a file a live one has open, and opens once it is closed', async () => {
    const path = newFile();
    const first = openGateway(path);
    expect(() => openGateway(path)).toThrow(
      /Another gateway \(process \d+\) has this SQLite file open as its single gateway/,
    );
    const refusal = (() => {
      try {
        openGateway(path);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(SingleGatewayInUseError);
    expect((refusal as SingleGatewayInUseError).pid).toBe(process.pid);
    // The CLI (holds in the file) may open it meanwhile.
    expect(await openCli(path).listAccounts()).toEqual([]);
    await first.close();
    expect(await openGateway(path).listAccounts()).toEqual([]);
  });

  it('rejects a save after close, as every call on a closed store', async () => {
    const gateway = openGateway(newFile());
    const account = await gateway.createAccount({ name: 'closed' });
    await gateway.close();
    await expect(gateway.saveResponse(storedResponse(account.id, 'resp_late'), ROOMY)).rejects.toThrow(
      /closed/,
    );
  });

  it('checkpoints the write-ahead log into the database file on the ledger thread once it runs', async () => {
    const path = newFile();
    const gateway = openGateway(path, { checkpointIntervalMs: 10 });
    const name = `checkpointed-${'x'.repeat(32)}`;
    await gateway.createAccount({ name });
    // The ledger's first call starts its thread; from then on the store's own connection never
    // checkpoints (wal_autocheckpoint = 0): only the thread moves the row into the file.
    await gateway.listUsage({}, { limit: 1 });
    const deadline = Date.now() + 10_000;
    while (!readFileSync(path).includes(name) && Date.now() < deadline) {
      await new Promise(resolve => setTimeout(resolve, 10));
    }
    expect(readFileSync(path).includes(name)).toBe(true);
  });

  it('after a kill -9, a reopened file has every committed charge and row and holds nothing', async () => {
    const path = newFile();
    const setup = openCli(path);
    const account = await setup.createAccount({ name: 'crash', balanceMicros: 1_000 });
    await setup.close();
    const entry = usageCommit({ accountId: account.id }).entry;
    // A gateway that holds 300 and 500, commits the first at 120, and is killed before the second ends.
    const program = `
      const { createSQLiteAccountStore } = require(${JSON.stringify(storeBuild)});
      const store = createSQLiteAccountStore({ path: ${JSON.stringify(path)}, serverSecret: 'crash', singleGateway: true, holdSweepIntervalMs: 0 });
      (async () => {
        const committed = await store.reserve(${JSON.stringify(account.id)}, 300);
        await store.reserve(${JSON.stringify(account.id)}, 500);
        await store.commitUsage([{ entry: ${JSON.stringify(entry)}, reservation: committed, costMicros: 120 }]);
        process.kill(process.pid, 'SIGKILL');
      })();`;
    const crashed = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '-e', program], {
      encoding: 'utf8',
    });
    expect(crashed.signal).toBe('SIGKILL');

    const reopened = openCli(path);
    expect(await reopened.getAccount(account.id)).toMatchObject({ balanceMicros: 880, reservedMicros: 0 });
    expect((await reopened.listUsage({ accountId: account.id }, { limit: 5 })).entries).toEqual([
      expect.objectContaining({ requestId: entry.requestId, costMicros: 120 }),
    ]);
    expect(await reopened.reserve(account.id, 880)).toMatchObject({ amountMicros: 880 });
    // The dead gateway does not keep a new one from opening the file.
    expect(await openGateway(path).getAccount(account.id)).toMatchObject({ balanceMicros: 880 });
  });
});
