import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import type { AccountStore, Reservation, UsageCommit } from '@signalbox/accounts';
import { ACCOUNT_BALANCE_HINT_MAX_AGE_MS, createPostgresAccountStore, type PostgresAccountStoreOptions } from '@signalbox/store-postgres';
import { storedResponse } from './describe-response-store-contract';
import { usageCommit } from './describe-usage-ledger-contract';
import { startStallingProxy } from '../helpers/start-stalling-proxy';
import { stopProcess, waitUntil } from '../helpers/throwaway-process';
import { ignoreTeardownErrors, usePostgresTestDatabases } from './postgres-test-databases';
import { commitRowsBeforeCacheLifetimes, DROP_CACHE_LIFETIME_COLUMNS, expectCacheLifetimesAfterUpgrade } from './cache-lifetime-upgrade';
import { commitRowBeforeUpstreamCredentials, DROP_UPSTREAM_CREDENTIAL_COLUMN, expectUpstreamCredentialsAfterUpgrade } from './upstream-credential-upgrade';
import { DROP_CONVERSATION_KEY_COLUMN } from './conversation-key-upgrade';
import { DROP_CONFIG_VERSIONS_POSTGRES } from './config-versions-upgrade';
import { commitRowBeforeUpstreamKinds, DROP_UPSTREAM_KIND_COLUMN, expectUpstreamKindsAfterUpgrade } from './upstream-kind-upgrade';
import { DROP_AUDIT_LOG } from './audit-log-upgrade';
import { DROP_BUDGETS_AND_ALERTS } from './budget-upgrade';

const SERVER_SECRET = 'postgres-instances-server-secret';
const T0 = 1_767_225_600_000;
const ROOMY = { maxBytesPerAccount: 64 * 1024 * 1024 };
const databases = usePostgresTestDatabases();
/** Takes a database back to before account changes were announced (the newest step), ahead of the older steps' drops. */
const DROP_ACCOUNT_ANNOUNCEMENTS = 'DROP TRIGGER accounts_announce ON accounts; ';

/**
 * A gateway instance in a process of its own (the built package, as a deployment runs it): opens
 * the store, takes a 300 hold that expires in an hour, prints it and keeps running until killed.
 */
const HOLDING_INSTANCE = `
  const { createPostgresAccountStore } = require(${JSON.stringify(join(__dirname, '../../packages/store-postgres/dist/index.js'))});
  (async () => {
    const store = await createPostgresAccountStore({ connectionString: process.env.STORE_URL, serverSecret: process.env.STORE_SECRET, holdSweepIntervalMs: 0 });
    const hold = await store.reserve(process.env.ACCOUNT_ID, 300, { expiresAt: Date.now() + 60 * 60 * 1000 });
    process.stdout.write(JSON.stringify(hold) + '\\n');
    setInterval(() => undefined, 60 * 1000);
  })();
`;

type StoreOptions = Partial<Omit<PostgresAccountStoreOptions, 'connectionString' | 'pool' | 'maxConnections'>> & {
  connectTimeoutMs?: number;
};

describe('PostgreSQL account store: several instances on one database', () => {
  const opened: AccountStore[] = [];
  const pools: pg.Pool[] = [];
  const open = async (url: string, options: StoreOptions = {}) => {
    const store = await createPostgresAccountStore({ connectionString: url, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0, ...options });
    opened.push(store);
    return store;
  };
  const newPool = (url: string) => {
    const pool = ignoreTeardownErrors(new pg.Pool({ connectionString: url, max: 4 }));
    pools.push(pool);
    return pool;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map(store => store.close()));
    await Promise.all(pools.splice(0).map(pool => pool.end()));
  });

  it('never holds more than the balance when two instances, each on its own pool, reserve at once; each hold settles once', async () => {
    const url = await databases.createDatabase();
    const [left, right] = await Promise.all([open(url), open(url)]);
    const account = await left!.createAccount({ name: 'shared', balanceMicros: 50 });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? left! : right!).reserve(account.id, 1)),
    );
    const granted = results.filter(result => result !== undefined);
    expect(granted).toHaveLength(50);
    expect(await right!.getAccount(account.id)).toMatchObject({ balanceMicros: 50, reservedMicros: 50 });

    const settled = await Promise.all(granted.flatMap(hold => [left!.settle(hold, 1), right!.settle(hold, 1)]));
    expect(settled.filter(result => result !== undefined)).toHaveLength(50);
    expect(await left!.getAccount(account.id)).toMatchObject({ balanceMicros: 0, reservedMicros: 0 });
  });

  it('commits batches that settle the same two accounts in opposite orders on two instances at once, without a deadlock', async () => {
    const url = await databases.createDatabase();
    const [left, right] = await Promise.all([open(url), open(url)]);
    const first = await left!.createAccount({ name: 'first', balanceMicros: 10_000 });
    const second = await left!.createAccount({ name: 'second', balanceMicros: 10_000 });
    const holds = async (store: AccountStore, accountId: string) =>
      Promise.all(Array.from({ length: 20 }, async () => (await store.reserve(accountId, 100))!));
    const [leftFirst, leftSecond, rightFirst, rightSecond] = await Promise.all([
      holds(left!, first.id),
      holds(left!, second.id),
      holds(right!, first.id),
      holds(right!, second.id),
    ]);
    const batch = (a: UsageCommit['reservation'], b: UsageCommit['reservation']) => [
      usageCommit({ accountId: a!.accountId }, { reservation: a!, costMicros: 10 }),
      usageCommit({ accountId: b!.accountId }, { reservation: b!, costMicros: 10 }),
    ];
    await Promise.all([
      ...leftFirst.map((hold, index) => left!.commitUsage(batch(hold, leftSecond[index]))),
      ...rightSecond.map((hold, index) => right!.commitUsage(batch(hold, rightFirst[index]))),
      left!.releaseExpiredHolds(T0),
      right!.releaseExpiredHolds(T0),
    ]);
    expect(await right!.getAccount(first.id)).toMatchObject({ balanceMicros: 10_000 - 40 * 10, reservedMicros: 0 });
    expect(await left!.getAccount(second.id)).toMatchObject({ balanceMicros: 10_000 - 40 * 10, reservedMicros: 0 });
  });

  it('releases a crashed instance’s holds once its heartbeat is older than the owner timeout, and keeps a live instance’s', async () => {
    const url = await databases.createDatabase();
    let clock = T0;
    const now = () => clock;
    const crashingPool = newPool(url);
    const crashing = await createPostgresAccountStore({ pool: crashingPool, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0, ownerTimeoutMs: 30_000, now });
    const survivor = await open(url, { ownerTimeoutMs: 30_000, now });
    const account = await survivor.createAccount({ name: 'crash', balanceMicros: 1_000 });
    const orphaned = (await crashing.reserve(account.id, 300, { expiresAt: T0 + 60 * 60 * 1000 }))!;
    const kept = (await survivor.reserve(account.id, 200, { expiresAt: T0 + 60 * 60 * 1000 }))!;
    // The instance dies: its connections go, nothing closes the store or deletes its owner row.
    await crashingPool.end();
    pools.splice(pools.indexOf(crashingPool), 1);

    clock = T0 + 30_000;
    expect(await survivor.releaseExpiredHolds(clock)).toBe(0);
    expect(await survivor.getAccount(account.id)).toMatchObject({ reservedMicros: 500 });
    clock = T0 + 30_001;
    expect(await survivor.releaseExpiredHolds(clock)).toBe(1);
    expect(await survivor.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 200 });
    expect(await survivor.settle(orphaned, 300)).toBeUndefined();
    expect(await survivor.settle(kept, 50)).toEqual({ chargedMicros: 50, uncoveredMicros: 0 });
    // What a dead process would not keep either: its connection listening for announcements.
    await crashing.close();
  });

  it('releases the holds of an instance killed with SIGKILL once its heartbeat is past the bound, from another instance', async () => {
    const url = await databases.createDatabase();
    const survivor = await open(url, { ownerTimeoutMs: 30_000 });
    const account = await survivor.createAccount({ name: 'killed', balanceMicros: 1_000 });
    const child = spawn(process.execPath, ['-e', HOLDING_INSTANCE], {
      env: { ...process.env, STORE_URL: url, STORE_SECRET: SERVER_SECRET, ACCOUNT_ID: account.id },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const orphaned = JSON.parse(line) as Reservation;
    await stopProcess(child, 'SIGKILL');
    const lastHeartbeat = Date.now();

    expect(await survivor.getAccount(account.id)).toMatchObject({ reservedMicros: 300 });
    expect(await survivor.releaseExpiredHolds(lastHeartbeat)).toBe(0);
    expect(await survivor.releaseExpiredHolds(lastHeartbeat + 30_001)).toBe(1);
    expect(await survivor.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 0 });
    expect(await survivor.settle(orphaned, 300)).toBeUndefined();
  });

  it('keeps a live instance’s holds past the owner timeout as long as its sweep beats', async () => {
    const url = await databases.createDatabase();
    let clock = T0;
    const now = () => clock;
    const [beating, judging] = await Promise.all([open(url, { ownerTimeoutMs: 30_000, now }), open(url, { ownerTimeoutMs: 30_000, now })]);
    const account = await judging!.createAccount({ name: 'alive', balanceMicros: 1_000 });
    await beating!.reserve(account.id, 400, { expiresAt: T0 + 60 * 60 * 1000 });
    for (let step = 1; step <= 4; step++) {
      clock = T0 + step * 20_000;
      await beating!.releaseExpiredHolds(clock);
      expect(await judging!.releaseExpiredHolds(clock)).toBe(0);
    }
    expect(await judging!.getAccount(account.id)).toMatchObject({ reservedMicros: 400 });
  });

  it('beats on a connection of its own: with every pooled connection taken by requests, its heartbeat still lands and its holds are kept', async () => {
    const url = await databases.createDatabase();
    let clock = T0;
    const now = () => clock;
    const busyPool = newPool(url);
    const busy = await createPostgresAccountStore({ pool: busyPool, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0, ownerTimeoutMs: 30_000, now });
    opened.push(busy);
    const judging = await open(url, { ownerTimeoutMs: 30_000, now });
    const account = await judging.createAccount({ name: 'busy', balanceMicros: 1_000 });
    await busy.reserve(account.id, 400, { expiresAt: T0 + 60 * 60 * 1000 });
    // Requests hold every connection of the busy instance's pool (4) for the whole check.
    const taken = await Promise.all(Array.from({ length: 4 }, () => busyPool.connect()));
    try {
      clock = T0 + 20_000;
      const beat = busy.releaseExpiredHolds(clock).then(() => 'beaten' as const);
      const stalled = new Promise<'stalled'>(resolve => setTimeout(resolve, 5_000, 'stalled').unref());
      expect(await Promise.race([beat, stalled])).toBe('beaten');
      clock = T0 + 40_000;
      expect(await judging.releaseExpiredHolds(clock)).toBe(0);
    } finally {
      taken.forEach(client => client.release());
    }
    expect(await judging.getAccount(account.id)).toMatchObject({ reservedMicros: 400 });
  });

  it('tells an instance once that it was taken for dead when its next beat finds its owner row gone', async () => {
    const url = await databases.createDatabase();
    let clock = T0;
    const now = () => clock;
    const lost: Error[] = [];
    const silent = await open(url, { ownerTimeoutMs: 30_000, now, onOwnerLost: error => lost.push(error) });
    const judging = await open(url, { ownerTimeoutMs: 30_000, now });
    const account = await judging.createAccount({ name: 'silent', balanceMicros: 1_000 });
    const hold = (await silent.reserve(account.id, 400, { expiresAt: T0 + 60 * 60 * 1000 }))!;
    clock = T0 + 30_001;
    expect(await judging.releaseExpiredHolds(clock)).toBe(1);

    await silent.releaseExpiredHolds(clock);
    expect(lost.map(error => error.message)).toEqual([expect.stringContaining('taken for dead (no heartbeat for 30000 ms)')]);
    await silent.releaseExpiredHolds(clock + 1);
    expect(lost).toHaveLength(1);
    expect(await silent.settle(hold, 400)).toBeUndefined();
    const kept = (await silent.reserve(account.id, 100, { expiresAt: T0 + 60 * 60 * 1000 }))!;
    expect(await judging.releaseExpiredHolds(clock + 2)).toBe(0);
    expect(await judging.settle(kept, 100)).toEqual({ chargedMicros: 100, uncoveredMicros: 0 });
  });

  it('refuses on one instance a key disabled on another as soon as the change is announced, and at once on the instance that disabled it', async () => {
    const url = await databases.createDatabase();
    const [serving, managing] = await Promise.all([open(url), open(url)]);
    const account = await managing!.createAccount({ name: 'keys' });
    const { secret, key } = await managing!.createKey({ accountId: account.id, name: 'laptop' });
    await waitForKeyStatus(serving!, secret, 'active');
    expect((await managing!.findKeyBySecret(secret))?.status).toBe('active');
    await managing!.updateKey(key.id, { status: 'disabled' });
    expect((await managing!.findKeyBySecret(secret))?.status).toBe('disabled');
    await waitForKeyStatus(serving!, secret, 'disabled');
  });

  it('keeps a found key until a change is announced, and reads again once its listening connection is lost', async () => {
    const url = await databases.createDatabase();
    const serving = await open(url);
    const account = await serving.createAccount({ name: 'keys' });
    const { secret, key } = await serving.createKey({ accountId: account.id, name: 'laptop' });
    const database = newPool(url);
    // Listening (the backend waiting on LISTEN), then the key read once and kept.
    await waitUntilListening(database, 1);
    expect((await serving.findKeyBySecret(secret))?.status).toBe('active');
    // A change nobody announces (the trigger off) is not seen while the kept row stands.
    await database.query('ALTER TABLE api_keys DISABLE TRIGGER api_keys_announce');
    await database.query("UPDATE api_keys SET status = 'disabled', disabled_by = 'operator' WHERE id = $1", [key.id]);
    expect((await serving.findKeyBySecret(secret))?.status).toBe('active');
    // The listening connection cut: the store forgets what it kept and reads the row again.
    await database.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()");
    await waitForKeyStatus(serving, secret, 'disabled');
    // Listening again: a change announced from then on is seen as before.
    await waitUntilListening(database, 1);
    await database.query('ALTER TABLE api_keys ENABLE TRIGGER api_keys_announce');
    await serving.updateKey(key.id, { status: 'active' });
    expect((await serving.findKeyBySecret(secret))?.status).toBe('active');
  });

  it('shows on one instance an account whose subscription ended on another as soon as the change is announced, and at once on the instance that ended it', async () => {
    const url = await databases.createDatabase();
    const [serving, managing] = await Promise.all([open(url), open(url)]);
    const account = await managing!.createAccount({ name: 'subscriber' });
    await waitUntilListening(newPool(url), 2, ACCOUNTS_LISTEN);
    expect((await serving!.getAccountForRequest!(account.id))?.subscription).toBe('active');
    expect((await managing!.getAccountForRequest!(account.id))?.subscription).toBe('active');
    await managing!.updateAccount(account.id, { subscription: 'inactive' });
    expect((await managing!.getAccountForRequest!(account.id))?.subscription).toBe('inactive');
    await waitForSubscription(serving!, account.id, 'inactive');
  });

  it('keeps an account as requests read it until a change is announced, its balance at most a bounded age, and reads it again once its listening connection is lost', async () => {
    const url = await databases.createDatabase();
    let clock = T0;
    const serving = await open(url, { now: () => clock });
    const account = await serving.createAccount({ name: 'kept', balanceMicros: 1_000 });
    const database = newPool(url);
    await waitUntilListening(database, 1, ACCOUNTS_LISTEN);
    expect(await serving.getAccountForRequest!(account.id)).toEqual(account);
    // A balance changed by another client is not announced: the kept balance stands until it is too old.
    await database.query('UPDATE accounts SET balance_micros = 2000 WHERE id = $1', [account.id]);
    clock += ACCOUNT_BALANCE_HINT_MAX_AGE_MS - 1;
    expect((await serving.getAccountForRequest!(account.id))?.balanceMicros).toBe(1_000);
    expect((await serving.getAccount(account.id))?.balanceMicros).toBe(2_000);
    clock += 1;
    expect((await serving.getAccountForRequest!(account.id))?.balanceMicros).toBe(2_000);
    // A top-up through the store is seen at once.
    await serving.adjustBalance(account.id, 500);
    expect((await serving.getAccountForRequest!(account.id))?.balanceMicros).toBe(2_500);
    // A subscription ended by another client is announced.
    await database.query("UPDATE accounts SET subscription = 'inactive' WHERE id = $1", [account.id]);
    await waitForSubscription(serving, account.id, 'inactive');
    // A change nobody announces (the trigger off) is not seen while the kept row stands.
    await database.query('ALTER TABLE accounts DISABLE TRIGGER accounts_announce');
    await database.query("UPDATE accounts SET subscription = 'active' WHERE id = $1", [account.id]);
    expect((await serving.getAccountForRequest!(account.id))?.subscription).toBe('inactive');
    // The listening connection cut: the store forgets what it kept and reads the row again.
    await database.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()");
    await waitForSubscription(serving, account.id, 'active');
    await database.query('ALTER TABLE accounts ENABLE TRIGGER accounts_announce');
  });

  it('reads the account on every request with cacheRefreshMs 0', async () => {
    const url = await databases.createDatabase();
    const serving = await open(url, { cacheRefreshMs: 0 });
    const account = await serving.createAccount({ name: 'uncached', balanceMicros: 1_000 });
    const database = newPool(url);
    await waitUntilListening(database, 1, ACCOUNTS_LISTEN);
    expect((await serving.getAccountForRequest!(account.id))?.subscription).toBe('active');
    await database.query('ALTER TABLE accounts DISABLE TRIGGER accounts_announce');
    await database.query("UPDATE accounts SET subscription = 'inactive' WHERE id = $1", [account.id]);
    expect((await serving.getAccountForRequest!(account.id))?.subscription).toBe('inactive');
  });

  it('migrates a fresh database exactly once when two instances start at the same moment', async () => {
    const url = await databases.createDatabase();
    const stores = await Promise.all([open(url), open(url), open(url)]);
    const account = await stores[0]!.createAccount({ name: 'race' });
    expect(await stores[2]!.getAccount(account.id)).toEqual(account);
    const { rows } = await newPool(url).query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }, { version: 5 }, { version: 6 }, { version: 7 }, { version: 8 }, { version: 9 }, { version: 10 }, { version: 11 }, { version: 12 }, { version: 13 }]);
  });

  it('upgrades a schema-6 database: its rows are kept without an upstream kind, and new rows keep theirs', async () => {
    const url = await databases.createDatabase();
    const current = await open(url);
    await commitRowBeforeUpstreamKinds(current);
    await current.close();
    await newPool(url).query(`${DROP_ACCOUNT_ANNOUNCEMENTS}${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_POSTGRES}${DROP_UPSTREAM_KIND_COLUMN}DELETE FROM schema_migrations WHERE version > 6`);
    await expectUpstreamKindsAfterUpgrade(await open(url));
    const { rows } = await newPool(url).query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map(row => row.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('upgrades a schema-1 database: its rows are kept without a trace id, and new rows keep theirs', async () => {
    const url = await databases.createDatabase();
    const current = await createPostgresAccountStore({ connectionString: url, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0 });
    const before = usageCommit({ requestId: 'req_before_traces' });
    await current.commitUsage([before]);
    await current.close();
    await newPool(url).query(
      `${DROP_ACCOUNT_ANNOUNCEMENTS}${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_POSTGRES}${DROP_CACHE_LIFETIME_COLUMNS}${DROP_UPSTREAM_CREDENTIAL_COLUMN}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}ALTER TABLE api_keys DROP COLUMN disabled_by; ALTER TABLE accounts DROP COLUMN key_limit_ceiling; ALTER TABLE usage DROP COLUMN trace_id; DELETE FROM schema_migrations WHERE version > 1`,
    );

    const upgraded = await open(url);
    const after = usageCommit({ requestId: 'req_after_traces', time: before.entry.time + 1, traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
    await upgraded.commitUsage([after]);
    const { entries } = await upgraded.listUsage({}, { limit: 5 });
    expect(entries.map(entry => [entry.requestId, entry.traceId])).toEqual([
      ['req_after_traces', '4bf92f3577b34da6a3ce929d0e0e4736'],
      ['req_before_traces', undefined],
    ]);
    const { rows } = await newPool(url).query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }, { version: 5 }, { version: 6 }, { version: 7 }, { version: 8 }, { version: 9 }, { version: 10 }, { version: 11 }, { version: 12 }, { version: 13 }]);
  });

  it('upgrades a schema-2 database: a key disabled before counts as disabled by the operator, and accounts have no ceiling', async () => {
    const url = await databases.createDatabase();
    const current = await open(url);
    const account = await current.createAccount({ name: 'before ceilings' });
    const active = (await current.createKey({ accountId: account.id, name: 'on' })).key;
    const disabled = (await current.createKey({ accountId: account.id, name: 'off', status: 'disabled' })).key;
    await current.close();
    await newPool(url).query(`${DROP_ACCOUNT_ANNOUNCEMENTS}${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_POSTGRES}${DROP_CACHE_LIFETIME_COLUMNS}${DROP_UPSTREAM_CREDENTIAL_COLUMN}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}ALTER TABLE api_keys DROP COLUMN disabled_by; ALTER TABLE accounts DROP COLUMN key_limit_ceiling; DELETE FROM schema_migrations WHERE version > 2`);

    const upgraded = await open(url);
    expect(await upgraded.getKey(disabled.id)).toEqual({ ...disabled, disabledBy: 'operator' });
    expect(await upgraded.getKey(active.id)).toEqual(active);
    expect(await upgraded.updateAccount(account.id, { keyLimitCeiling: { concurrency: 2 } })).toEqual({ ...account, keyLimitCeiling: { concurrency: 2 } });
    const { rows } = await newPool(url).query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }, { version: 5 }, { version: 6 }, { version: 7 }, { version: 8 }, { version: 9 }, { version: 10 }, { version: 11 }, { version: 12 }, { version: 13 }]);
  });

  it('upgrades a schema-3 database: its ledger rows count their cache writes as 5-minute ones and saved nothing', async () => {
    const url = await databases.createDatabase();
    const current = await open(url);
    await commitRowsBeforeCacheLifetimes(current);
    await current.close();
    await newPool(url).query(`${DROP_ACCOUNT_ANNOUNCEMENTS}${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_POSTGRES}${DROP_CACHE_LIFETIME_COLUMNS}${DROP_UPSTREAM_CREDENTIAL_COLUMN}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}DELETE FROM schema_migrations WHERE version > 3`);
    await expectCacheLifetimesAfterUpgrade(await open(url));
  });

  it('upgrades a schema-4 database: its rows are kept without an upstream credential, and new rows keep theirs', async () => {
    const url = await databases.createDatabase();
    const current = await open(url);
    await commitRowBeforeUpstreamCredentials(current);
    await current.close();
    await newPool(url).query(`${DROP_ACCOUNT_ANNOUNCEMENTS}${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_POSTGRES}${DROP_UPSTREAM_CREDENTIAL_COLUMN}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}DELETE FROM schema_migrations WHERE version > 4`);
    await expectUpstreamCredentialsAfterUpgrade(await open(url));
    const { rows } = await newPool(url).query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }, { version: 5 }, { version: 6 }, { version: 7 }, { version: 8 }, { version: 9 }, { version: 10 }, { version: 11 }, { version: 12 }, { version: 13 }]);
  });

  it('answers ping while open and rejects it, and every other call, once closed', async () => {
    const store = await createPostgresAccountStore({ connectionString: await databases.createDatabase(), serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0 });
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await store.close();
    await expect(store.ping()).rejects.toThrow(/closed/);
    await expect(store.listAccounts()).rejects.toThrow(/closed/);
  });

  it('refuses a database whose schema is newer than it knows, and a database it cannot reach, with a clear error', async () => {
    const url = await databases.createDatabase();
    await open(url);
    await newPool(url).query('INSERT INTO schema_migrations (version) VALUES (999)');
    await expect(open(url)).rejects.toThrow(/Cannot open the PostgreSQL account store: .*version 999 is newer/);
    const unreachable = url.replace(/:\d+\//, ':1/');
    await expect(open(unreachable)).rejects.toThrow(/Cannot open the PostgreSQL account store/);
  });

  it('gives up on a database that stops answering within its own pool\u2019s connect and query timeouts, and serves again once it answers', async () => {
    const url = new URL(await databases.createDatabase());
    // Migrated first, straight to the database: through the proxy, opening only reads the schema version.
    await open(url.toString());
    const proxy = await startStallingProxy(Number(url.port));
    url.port = String(proxy.port);
    // Short enough for a quick test, long enough that a busy machine's ordinary query never reaches it.
    const timeoutMs = 1_000;
    const store = await createPostgresAccountStore({
      connectionString: url.toString(),
      serverSecret: SERVER_SECRET,
      holdSweepIntervalMs: 0,
      connectTimeoutMs: timeoutMs,
      queryTimeoutMs: timeoutMs,
    });
    try {
      const account = await store.createAccount({ name: 'stalled' });
      proxy.stall();
      await expect(store.getAccount(account.id)).rejects.toThrow(/timeout/i);
      await expect(open(url.toString(), { connectTimeoutMs: timeoutMs })).rejects.toThrow(/Cannot open the PostgreSQL account store: .*timeout/i);
      proxy.resume();
      expect(await store.getAccount(account.id)).toEqual(account);
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it('refuses a balance beyond Number.MAX_SAFE_INTEGER instead of rounding it: a change to one rolls back, a read of one throws', async () => {
    const url = await databases.createDatabase();
    const store = await open(url);
    const account = await store.createAccount({ name: 'huge', balanceMicros: Number.MAX_SAFE_INTEGER });
    expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: Number.MAX_SAFE_INTEGER });
    // A change whose result a number could not hold is rolled back with its balance event.
    await expect(store.adjustBalance(account.id, 2)).rejects.toThrow(/9007199254740993 is beyond/);
    expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: Number.MAX_SAFE_INTEGER });
    expect((await store.listBalanceEvents(account.id, { limit: 5 })).events).toHaveLength(1);
    await newPool(url).query('UPDATE accounts SET balance_micros = balance_micros + 2 WHERE id = $1', [account.id]);
    await expect(store.getAccount(account.id)).rejects.toThrow(/9007199254740993 is beyond/);
  });

  it('keeps everything across close and reopen, and releases at reopen the holds the closed instance still had', async () => {
    const url = await databases.createDatabase();
    const first = await createPostgresAccountStore({ connectionString: url, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0 });
    const account = await first.createAccount({ name: 'durable', balanceMicros: 2_000, group: 'g' });
    const { secret, key } = await first.createKey({ accountId: account.id, name: 'k', allowedModels: ['m'] });
    const console = await first.createConsoleToken({ accountId: account.id, name: 'alice' });
    await first.adjustBalance(account.id, 500);
    const charged = (await first.reserve(account.id, 400))!;
    const commit = usageCommit({ accountId: account.id }, { reservation: charged, costMicros: 321 });
    await first.commitUsage([commit]);
    const response = storedResponse(account.id, 'resp_durable', { createdAt: Date.now(), expiresAt: Date.now() + 60 * 60 * 1000 });
    await first.saveResponse(response, ROOMY);
    const leftHeld = (await first.reserve(account.id, 700))!;
    await first.close();

    const second = await open(url);
    expect(await second.getAccount(account.id)).toEqual({ ...account, balanceMicros: 2_179, reservedMicros: 0 });
    expect(await second.findKeyBySecret(secret)).toEqual(key);
    expect(await second.findConsoleTokenBySecret(console.secret)).toEqual(console.token);
    expect((await second.listUsage({ accountId: account.id }, { limit: 5 })).entries).toEqual([{ ...commit.entry, costMicros: 321, uncoveredMicros: 0 }]);
    expect((await second.listBalanceEvents(account.id, { limit: 5 })).events.map(event => event.kind)).toEqual(['top-up', 'opening']);
    expect(await second.getResponse(account.id, 'resp_durable', Date.now())).toEqual(response);
    expect(await second.settle(leftHeld, 100)).toBeUndefined();
  });

});

async function waitForKeyStatus(store: AccountStore, secret: string, status: string): Promise<void> {
  let seen: string | undefined;
  await waitUntil(async () => (seen = (await store.findKeyBySecret(secret))?.status) === status, {
    what: () => `the key ${status} (it is ${seen})`,
    exited: () => false,
    timeoutMs: 10_000,
  });
}

/** The last `LISTEN` a store makes at start (without leases): once it is in place, accounts are kept. */
const ACCOUNTS_LISTEN = 'LISTEN signalbox_accounts';

async function waitForSubscription(store: AccountStore, accountId: string, subscription: string): Promise<void> {
  let seen: string | undefined;
  await waitUntil(async () => (seen = (await store.getAccountForRequest!(accountId))?.subscription) === subscription, {
    what: () => `the subscription ${subscription} (it is ${seen})`,
    exited: () => false,
    timeoutMs: 10_000,
  });
}

/** Until `count` backends of the database wait on a `LISTEN` (the one given, else any). */
async function waitUntilListening(database: pg.Pool, count: number, listen = 'LISTEN %'): Promise<void> {
  const listening = async () =>
    (await database.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE $1 AND state = 'idle'", [listen])).rows[0].n;
  await waitUntil(async () => (await listening()) >= count, { what: () => `${count} listening connections`, exited: () => false, timeoutMs: 10_000 });
}
