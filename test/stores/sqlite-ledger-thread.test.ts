import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type * as WorkerThreads from 'node:worker_threads';
import type { AccountStore, Reservation } from '@signalbox/accounts';
import { createSQLiteAccountStore } from '@signalbox/store-sqlite';
import { usageCommit } from './describe-usage-ledger-contract';

const directory = mkdtempSync(join(tmpdir(), 'signalbox-ledger-thread-'));
let fileCount = 0;
const newFile = () => join(directory, `ledger-${++fileCount}.sqlite`);

/** Every thread the store starts, so a test can stop one as a crash would (the module object the store itself uses). */
const workerThreads = jest.requireActual<typeof WorkerThreads>('node:worker_threads');
const RealWorker = workerThreads.Worker;
let started: WorkerThreads.Worker[] = [];
beforeEach(() => {
  started = [];
  jest.spyOn(workerThreads, 'Worker').mockImplementation((...args) => {
    const worker = new RealWorker(...args);
    started.push(worker);
    return worker;
  });
});
afterEach(() => jest.restoreAllMocks());
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The ledger rows in the file, in the order they were inserted, read by a connection of its own. */
function rowsInFile(path: string): { request_id: string; cost_micros: number }[] {
  const database = new DatabaseSync(path, { readOnly: true });
  try {
    return database.prepare('SELECT request_id, cost_micros FROM usage ORDER BY rowid').all() as never;
  } finally {
    database.close();
  }
}

/**
 * A single gateway's ledger on its own thread: batches committed there in the order they were sent,
 * each acknowledged only once committed, reads answered after the batches sent before them, every
 * batch sent before `close` committed, and a thread that dies reported, with the calls it leaves
 * run on the store's own connection, so no acknowledged row is lost and no hold stays open.
 */
describe('SQLite ledger thread (single gateway)', () => {
  const opened: AccountStore[] = [];
  let errors: unknown[] = [];
  const openGateway = (path: string) => {
    const store = createSQLiteAccountStore({
      path,
      serverSecret: 'ledger-thread-test-secret',
      holdSweepIntervalMs: 0,
      singleGateway: true,
      onWriteError: error => errors.push(error),
    });
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    errors = [];
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map(store => store.close()));
  });

  /** The ledger thread: the one started after the store opened, at its first charge. */
  const ledgerThread = (openedWith: number) => {
    expect(started).toHaveLength(openedWith + 1);
    return started.at(-1)!;
  };
  /** A gateway on a new file with one account and `count` holds of `amountMicros`, and how many threads had started by then. */
  const openWithHolds = async (name: string, balanceMicros: number, count: number, amountMicros: number) => {
    const path = newFile();
    const store = openGateway(path);
    const account = await store.createAccount({ name, balanceMicros });
    const holds: Reservation[] = [];
    for (let index = 0; index < count; index++) holds.push((await store.reserve(account.id, amountMicros))!);
    return { path, store, account, holds, atOpen: started.length };
  };

  it('commits batches on its thread in the order sent, and reads sent after a batch see its rows', async () => {
    const { path, store, account, holds, atOpen } = await openWithHolds('ordered', 10_000, 6, 500);
    const batches = [0, 2, 4].map(first =>
      [first, first + 1].map(index => usageCommit({ accountId: account.id }, { reservation: holds[index]!, costMicros: 50 * (index + 1) })),
    );
    // Sent without waiting, then a read: the thread answers them in order.
    const committed = batches.map(batch => store.commitUsage(batch));
    const page = store.listUsage({ accountId: account.id }, { limit: 10 });

    ledgerThread(atOpen);
    expect(await Promise.all(committed)).toEqual(
      batches.map(batch => batch.map(commit => ({ chargedMicros: commit.costMicros, uncoveredMicros: 0 }))),
    );
    expect((await page).entries).toHaveLength(6);
    expect(rowsInFile(path)).toEqual(batches.flat().map(commit => ({ request_id: commit.entry.requestId, cost_micros: commit.costMicros })));
    expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 10_000 - 1_050, reservedMicros: 0 });
    expect(await store.holdTotals!()).toMatchObject({ count: 0, amountMicros: 0 });
    expect(errors).toEqual([]);
  });

  it('keeps a batch’s holds counted until the thread has committed it', async () => {
    const { store, account, holds: [hold] } = await openWithHolds('held', 1_000, 1, 800);
    const committing = store.commitUsage([usageCommit({ accountId: account.id }, { reservation: hold!, costMicros: 300 })]);
    // In flight: the hold still counts, so the 800 held is not available twice.
    expect(await store.reserve(account.id, 300)).toBeUndefined();
    await committing;
    expect(await store.reserve(account.id, 700)).toMatchObject({ amountMicros: 700 });
  });

  it('commits every batch sent before close, then ends its thread', async () => {
    const { path, store, account, holds, atOpen } = await openWithHolds('drained', 5_000, 4, 1_000);
    const commits = holds.map(hold => usageCommit({ accountId: account.id }, { reservation: hold, costMicros: 250 }));
    const committed = [store.commitUsage(commits.slice(0, 2)), store.commitUsage(commits.slice(2))];
    const exited = new Promise(resolve => ledgerThread(atOpen).once('exit', resolve));
    await store.close();

    await exited;
    expect((await Promise.all(committed)).flat()).toEqual(commits.map(() => ({ chargedMicros: 250, uncoveredMicros: 0 })));
    expect(rowsInFile(path).map(row => row.request_id)).toEqual(commits.map(commit => commit.entry.requestId));
    const reopened = openGateway(path);
    expect(await reopened.getAccount(account.id)).toMatchObject({ balanceMicros: 4_000, reservedMicros: 0 });
  });

  it('runs the retention deletion on the store connection until a charge has started the thread, then on the thread', async () => {
    const path = newFile();
    // Rows written earlier, by a gateway that has since stopped.
    const before = createSQLiteAccountStore({ path, serverSecret: 'ledger-thread-test-secret', holdSweepIntervalMs: 0 });
    const account = await before.createAccount({ name: 'swept', balanceMicros: 10_000 });
    const old = [usageCommit({ accountId: account.id, time: 1_000 }), usageCommit({ accountId: account.id, time: 2_000 })];
    await before.commitUsage(old);
    await before.close();

    const store = openGateway(path);
    const atOpen = started.length;
    // An idle gateway's sweep: the expired row goes, and no thread starts for it.
    expect(await store.deleteUsageBefore(1_500)).toBe(1);
    expect(started).toHaveLength(atOpen);
    const hold = (await store.reserve(account.id, 500))!;
    await store.commitUsage([usageCommit({ accountId: account.id, time: 3_000 }, { reservation: hold, costMicros: 100 })]);
    ledgerThread(atOpen);
    expect(await store.deleteUsageBefore(2_500)).toBe(1);
    expect(started).toHaveLength(atOpen + 1);
    expect(rowsInFile(path)).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('reports a thread that died, keeps the rows it acknowledged, and commits the rest on its own connection without leaving a hold', async () => {
    const { path, store, account, holds, atOpen } = await openWithHolds('crashed', 10_000, 3, 1_000);
    const acknowledged = usageCommit({ accountId: account.id }, { reservation: holds[0]!, costMicros: 400 });
    await store.commitUsage([acknowledged]);

    // A batch in flight when the thread dies, and one sent after.
    const inFlight = usageCommit({ accountId: account.id }, { reservation: holds[1]!, costMicros: 300 });
    const pending = store.commitUsage([inFlight]);
    await ledgerThread(atOpen).terminate();
    // Committed by the thread before it died or by the store after: once either way (the money below says so).
    expect(await pending).toHaveLength(1);
    const after = usageCommit({ accountId: account.id }, { reservation: holds[2]!, costMicros: 200 });
    expect(await store.commitUsage([after])).toEqual([{ chargedMicros: 200, uncoveredMicros: 0 }]);

    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/ledger thread stopped/);
    // Not started again: its calls stay on the store's connection.
    ledgerThread(atOpen);
    expect(rowsInFile(path)).toEqual(
      [acknowledged, inFlight, after].map(commit => ({ request_id: commit.entry.requestId, cost_micros: commit.costMicros })),
    );
    expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 9_100, reservedMicros: 0 });
    expect(await store.holdTotals!()).toMatchObject({ count: 0, amountMicros: 0 });
    expect((await store.listUsage({ accountId: account.id }, { limit: 10 })).entries).toHaveLength(3);
  });
});
