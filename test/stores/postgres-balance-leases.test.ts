import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import type { AccountStore, Reservation } from '@signalbox/accounts';
import { createPostgresAccountStore, type PostgresAccountStoreOptions } from '@signalbox/store-postgres';
import { usageCommit } from './describe-usage-ledger-contract';
import { stallQuery } from '../helpers/stall-query';
import { stopProcess, waitUntil } from '../helpers/throwaway-process';
import { ignoreTeardownErrors, usePostgresTestDatabases } from './postgres-test-databases';

const SERVER_SECRET = 'postgres-leases-server-secret';
const T0 = 1_767_225_600_000;
const SLICE = { sliceMicros: 1_000_000, idleMs: 5_000 };
const databases = usePostgresTestDatabases();

/**
 * A gateway instance in a process of its own (the built package): opens the store with leases,
 * takes a 300 hold from a lease, prints it and keeps running until killed.
 */
const LEASING_INSTANCE = `
  const { createPostgresAccountStore } = require(${JSON.stringify(join(__dirname, '../../packages/store-postgres/dist/index.js'))});
  (async () => {
    const store = await createPostgresAccountStore({
      connectionString: process.env.STORE_URL, serverSecret: process.env.STORE_SECRET, holdSweepIntervalMs: 0,
      balanceLeases: { sliceMicros: 1000000 },
    });
    const hold = await store.reserve(process.env.ACCOUNT_ID, 300);
    process.stdout.write(JSON.stringify(hold) + '\\n');
    setInterval(() => undefined, 60 * 1000);
  })();
`;

type StoreOptions = Partial<Omit<PostgresAccountStoreOptions, 'connectionString' | 'pool' | 'maxConnections'>>;

describe('PostgreSQL account store: balance leases', () => {
  const opened: AccountStore[] = [];
  const pools: pg.Pool[] = [];
  const open = async (url: string, options: StoreOptions = {}) => {
    const store = await createPostgresAccountStore({ connectionString: url, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0, balanceLeases: SLICE, ...options });
    opened.push(store);
    return store;
  };
  const newPool = (url: string) => {
    const pool = ignoreTeardownErrors(new pg.Pool({ connectionString: url, max: 4 }));
    pools.push(pool);
    return pool;
  };
  /** Balance, every hold and lease (`reserved_micros`), and the leases alone, as the database has them. */
  const money = async (database: pg.Pool, accountId: string) => {
    const { rows } = await database.query<{ balance: string; reserved: string; leased: string; holds: string }>(
      `SELECT balance_micros AS balance, reserved_micros AS reserved,
         (SELECT coalesce(sum(amount_micros), 0) FROM balance_leases WHERE account_id = $1) AS leased,
         (SELECT coalesce(sum(amount_micros), 0) FROM reservations WHERE account_id = $1) AS holds
       FROM accounts WHERE id = $1`,
      [accountId],
    );
    const row = rows[0]!;
    return { balance: Number(row.balance), reserved: Number(row.reserved), leased: Number(row.leased), holds: Number(row.holds) };
  };
  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(opened.splice(0).map(store => store.close()));
    await Promise.all(pools.splice(0).map(pool => pool.end()));
  });

  it('serves holds from one leased slice in memory, charges each with its ledger row, and gives the slice back at close', async () => {
    const url = await databases.createDatabase();
    const pool = ignoreTeardownErrors(new pg.Pool({ connectionString: url, max: 4 }));
    pools.push(pool);
    const store = await createPostgresAccountStore({ pool, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0, balanceLeases: SLICE });
    opened.push(store);
    const database = newPool(url);
    const account = await store.createAccount({ name: 'leased', balanceMicros: 10_000_000 });
    const query = jest.spyOn(pool, 'query');
    const holds = await Promise.all(Array.from({ length: 20 }, () => store.reserve(account.id, 1_000)));
    // One statement took the slice: available 10 000 000 over twice the one live instance, capped at the slice.
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
    expect(holds.every(hold => hold?.amountMicros === 1_000)).toBe(true);
    expect(await money(database, account.id)).toEqual({ balance: 10_000_000, reserved: 1_000_000, leased: 1_000_000, holds: 0 });

    const commits = holds.map((hold, index) => usageCommit({ requestId: `req_${index}`, accountId: account.id }, { reservation: hold!, costMicros: 700 }));
    const settled = await store.commitUsage(commits);
    expect(settled.every(result => result.chargedMicros === 700)).toBe(true);
    expect(await money(database, account.id)).toEqual({ balance: 10_000_000 - 20 * 700, reserved: 1_000_000 - 20 * 700, leased: 1_000_000 - 20 * 700, holds: 0 });
    const ledger = await store.listUsage({ accountId: account.id }, { limit: 100 });
    expect(ledger.entries.reduce((sum, row) => sum + row.costMicros, 0)).toBe(20 * 700);
    // A settlement of a hold already committed charges nothing.
    expect(await store.settle(holds[0]!, 700)).toBeUndefined();

    await store.close();
    expect(await money(database, account.id)).toEqual({ balance: 10_000_000 - 20 * 700, reserved: 0, leased: 0, holds: 0 });
  });

  it('charges a lease hold at most its hold and the balance, and a settle of it twice once', async () => {
    const url = await databases.createDatabase();
    const store = await open(url);
    const database = newPool(url);
    const account = await store.createAccount({ name: 'capped', balanceMicros: 100_000 });
    const hold = (await store.reserve(account.id, 300))!;
    expect(await money(database, account.id)).toMatchObject({ leased: 50_000 });
    expect(await store.settle(hold, 1_000)).toEqual({ chargedMicros: 300, uncoveredMicros: 700 });
    expect(await store.settle(hold, 1_000)).toBeUndefined();
    expect(await money(database, account.id)).toEqual({ balance: 99_700, reserved: 49_700, leased: 49_700, holds: 0 });
  });

  it('two instances racing 400 holds against a balance for 50 never hold or charge more than the balance, and the ledger adds up', async () => {
    const url = await databases.createDatabase();
    const [left, right] = await Promise.all([open(url), open(url)]);
    const database = newPool(url);
    const opening = 50 * 1_000;
    const account = await left!.createAccount({ name: 'race', balanceMicros: opening });
    const holds = await Promise.all(Array.from({ length: 400 }, (_, index) => (index % 2 ? left! : right!).reserve(account.id, 1_000)));
    const granted = holds.flatMap((hold, index) => (hold ? [{ hold, store: index % 2 ? left! : right! }] : []));
    expect(granted.length).toBeGreaterThan(0);
    expect(granted.length).toBeLessThanOrEqual(50);
    const held = await money(database, account.id);
    expect(held.reserved).toBe(held.leased + held.holds);
    expect(held.reserved).toBeLessThanOrEqual(opening);

    await Promise.all(
      [left!, right!].map(store =>
        store.commitUsage(
          granted.filter(entry => entry.store === store).map(({ hold }, index) => usageCommit({ requestId: `req_${hold.id}_${index}`, accountId: account.id }, { reservation: hold, costMicros: 1_000 })),
        ),
      ),
    );
    const after = await money(database, account.id);
    expect(after.balance).toBe(opening - granted.length * 1_000);
    const ledger = await left!.listUsage({ accountId: account.id }, { limit: 1_000 });
    expect(ledger.entries.reduce((sum, row) => sum + row.costMicros, 0)).toBe(opening - after.balance);
    await Promise.all([left!.close(), right!.close()]);
    expect(await money(database, account.id)).toEqual({ balance: after.balance, reserved: 0, leased: 0, holds: 0 });
  });

  it('leases a slice sized by the live instances, so a second instance still gets the rest; a hold larger than a slice is a hold of its own', async () => {
    const url = await databases.createDatabase();
    const [first, second] = await Promise.all([open(url), open(url)]);
    const database = newPool(url);
    const account = await first!.createAccount({ name: 'shared', balanceMicros: 1_000_000 });
    expect(await first!.reserve(account.id, 1_000)).toBeDefined();
    // Two live instances: a quarter of what was available.
    expect(await money(database, account.id)).toMatchObject({ leased: 250_000, holds: 0 });
    expect(await second!.reserve(account.id, 700_000)).toMatchObject({ amountMicros: 700_000 });
    expect(await money(database, account.id)).toMatchObject({ reserved: 950_000, leased: 250_000, holds: 700_000 });
    // Too little left for a slice (50 000 over 4 is under the hold): a hold of its own, then none.
    expect(await second!.reserve(account.id, 40_000)).toMatchObject({ amountMicros: 40_000 });
    expect(await money(database, account.id)).toMatchObject({ reserved: 990_000, leased: 250_000, holds: 740_000 });
    expect(await second!.reserve(account.id, 20_000)).toBeUndefined();
  });

  it('gives back the unused rest of its own lease when a hold of its own needs it', async () => {
    const url = await databases.createDatabase();
    const store = await open(url);
    const database = newPool(url);
    const account = await store.createAccount({ name: 'tight', balanceMicros: 10_000 });
    expect(await store.reserve(account.id, 1_000)).toBeDefined();
    expect(await money(database, account.id)).toMatchObject({ leased: 5_000 });
    expect(await store.reserve(account.id, 9_000)).toMatchObject({ amountMicros: 9_000 });
    expect(await money(database, account.id)).toEqual({ balance: 10_000, reserved: 10_000, leased: 1_000, holds: 9_000 });
  });

  it('sees a top-up made through another instance on the very next hold', async () => {
    const url = await databases.createDatabase();
    const serving = await open(url);
    const managing = await createPostgresAccountStore({ connectionString: url, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0 });
    opened.push(managing);
    const account = await managing.createAccount({ name: 'top-up', balanceMicros: 4_000 });
    const first = (await serving.reserve(account.id, 1_000))!;
    expect(first).toBeDefined();
    await serving.settle(first, 1_000);
    expect(await serving.reserve(account.id, 3_500)).toBeUndefined();
    await managing.adjustBalance(account.id, 1_000_000);
    expect(await serving.reserve(account.id, 3_500)).toMatchObject({ amountMicros: 3_500 });
    await managing.adjustBalance(account.id, -1_000_000);
    expect(await serving.reserve(account.id, 1_000)).toBeUndefined();
  });

  it('a budget set through another instance while a lease is live stops the lease at its announcement: the next holds are checked against it, and the lease\'s charges count in it', async () => {
    const url = await databases.createDatabase();
    const serving = await open(url);
    const managing = await createPostgresAccountStore({ connectionString: url, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0 });
    opened.push(managing);
    const database = newPool(url);
    const account = await managing.createAccount({ name: 'budgeted later', balanceMicros: 10_000_000 });
    const leased = (await serving.reserve(account.id, 1_000))!;
    expect(await money(database, account.id)).toEqual({ balance: 10_000_000, reserved: 1_000_000, leased: 1_000_000, holds: 0 });
    await managing.setBudget({ accountId: account.id, period: 'day', limitMicros: 1_500 });
    // The announcement arrives: the lease keeps only what its hold in flight needs.
    await waitUntil(async () => (await money(database, account.id)).leased === 1_000, { what: () => 'the lease given back', exited: () => false });
    // Checked against the budget now (spent 0, limit 1 500), as per-request holds, whatever the lease had.
    expect(await serving.reserve(account.id, 2_000)).toBeUndefined();
    const checked = (await serving.reserve(account.id, 1_000))!;
    expect(await money(database, account.id)).toEqual({ balance: 10_000_000, reserved: 2_000, leased: 1_000, holds: 1_000 });
    // The hold served from the lease before the budget counts in it once charged.
    await serving.settle(leased, 800);
    expect(await managing.listBudgets(account.id)).toMatchObject([{ limitMicros: 1_500, spentMicros: 800 }]);
    expect(await serving.reserve(account.id, 800)).toBeUndefined();
    await serving.settle(checked, 700);
    expect(await managing.listBudgets(account.id)).toMatchObject([{ spentMicros: 1_500 }]);
    expect(await serving.reserve(account.id, 1)).toBeUndefined();
  });

  it('a lease taken before the listening connection broke serves no more holds (an announcement may have been missed)', async () => {
    // Another store listening on another database of the same server, as other files' stores do on the run's shared one.
    await open(await databases.createDatabase());
    const url = await databases.createDatabase();
    const serving = await open(url);
    const database = newPool(url);
    const account = await serving.createAccount({ name: 'unannounced', balanceMicros: 10_000_000 });
    expect(await serving.reserve(account.id, 1_000)).toBeDefined();
    expect(await money(database, account.id)).toMatchObject({ leased: 1_000_000, holds: 0 });
    // This database's listening connection, done listening, and the last channel it listened on.
    const listener = async () =>
      (await database.query<{ pid: number; query: string }>("SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND state = 'idle'")).rows;
    const [broken, ...others] = await listener();
    expect(others).toEqual([]);
    await database.query('SELECT pg_terminate_backend($1)', [broken!.pid]);
    // The store noticed the break once it listens on a new connection, and on every channel again (in the same order).
    const back = async () => (await listener()).some(row => row.pid !== broken!.pid && row.query === broken!.query);
    await waitUntil(back, { what: () => `the listener back on every channel (${broken!.query} last)`, exited: () => false });
    const during = (await serving.reserve(account.id, 1_000))!;
    // The lease taken before the break may have missed an announcement: it serves nothing, the hold is a row of its own.
    expect(await money(database, account.id)).toMatchObject({ leased: 1_000_000, holds: 1_000 });
    await serving.settle(during, 1_000);
  });

  it('serves no hold from a lease while budget changes are not listened to again, the other channels back or not', async () => {
    const url = await databases.createDatabase();
    const serving = await open(url);
    const database = newPool(url);
    const [before, after] = await Promise.all(['before', 'after'].map(name => serving.createAccount({ name, balanceMicros: 10_000_000 })));
    expect(await serving.reserve(before!.id, 1_000)).toBeDefined();
    const budgets = stallQuery('LISTEN signalbox_budgets');
    await database.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'");
    // A new connection has listened on every channel before the budgets' one, whose LISTEN now waits.
    await budgets.reached;
    const during = await Promise.all([serving.reserve(before!.id, 1_000), serving.reserve(after!.id, 1_000)]);
    expect([await money(database, before!.id), await money(database, after!.id)]).toMatchObject([{ leased: 1_000_000, holds: 1_000 }, { leased: 0, holds: 1_000 }]);
    budgets.release();
    await budgets.answered;
    // Announcements heard again: a new lease serves, the one taken before the break still does not.
    await Promise.all([serving.reserve(before!.id, 1_000), serving.reserve(after!.id, 1_000)]);
    expect([await money(database, before!.id), await money(database, after!.id)]).toMatchObject([{ leased: 1_000_000, holds: 2_000 }, { leased: 1_000_000, holds: 1_000 }]);
    await Promise.all(during.map(hold => serving.settle(hold!, 1_000)));
  });

  it('gives an idle lease back at the sweep, renews a used one, and releases an expired lease hold without charge', async () => {
    const url = await databases.createDatabase();
    let clock = T0;
    const store = await open(url, { now: () => clock });
    const database = newPool(url);
    const [idle, busy] = await Promise.all([store.createAccount({ name: 'idle', balanceMicros: 100_000 }), store.createAccount({ name: 'busy', balanceMicros: 100_000 })]);
    const done = (await store.reserve(idle.id, 100))!;
    await store.settle(done, 100);
    const expiring = (await store.reserve(busy.id, 100, { expiresAt: T0 + 60_000 }))!;
    const open2 = (await store.reserve(busy.id, 100, { expiresAt: T0 + 3_600_000 }))!;
    clock = T0 + 60_000;
    await store.releaseExpiredHolds(clock);
    expect(await money(database, idle.id)).toEqual({ balance: 99_900, reserved: 0, leased: 0, holds: 0 });
    expect(await money(database, busy.id)).toMatchObject({ leased: 50_000 });
    const { rows } = await database.query<{ expires_at: string }>('SELECT expires_at FROM balance_leases WHERE account_id = $1', [busy.id]);
    expect(Number(rows[0]!.expires_at)).toBe(T0 + 60_000 + 180_000);
    expect(await store.settle(expiring, 100)).toBeUndefined();
    expect(await store.settle(open2, 100)).toEqual({ chargedMicros: 100, uncoveredMicros: 0 });
    expect(await money(database, busy.id)).toEqual({ balance: 99_900, reserved: 49_900, leased: 49_900, holds: 0 });
  });

  it('gives the slice of a killed instance back once its owner is taken for dead, and its holds charge nothing', async () => {
    const url = await databases.createDatabase();
    const survivor = await open(url, { ownerTimeoutMs: 30_000 });
    const database = newPool(url);
    const account = await survivor.createAccount({ name: 'crash', balanceMicros: 1_000_000 });
    const child = spawn(process.execPath, ['-e', LEASING_INSTANCE], {
      env: { PATH: process.env.PATH ?? '', STORE_URL: url, STORE_SECRET: SERVER_SECRET, ACCOUNT_ID: account.id },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const hold = JSON.parse(line) as Reservation;
    expect(hold).toMatchObject({ accountId: account.id, amountMicros: 300 });
    expect(await money(database, account.id)).toMatchObject({ reserved: 250_000, leased: 250_000 });
    await stopProcess(child, 'SIGKILL');
    // Its heartbeat now older than the owner timeout: the survivor's sweep ends the lease.
    await survivor.releaseExpiredHolds(Date.now() + 30_001);
    expect(await money(database, account.id)).toEqual({ balance: 1_000_000, reserved: 0, leased: 0, holds: 0 });
    expect(await survivor.settle(hold, 300)).toBeUndefined();
    expect(await survivor.reserve(account.id, 1_000_000)).toMatchObject({ amountMicros: 1_000_000 });
  });
});
