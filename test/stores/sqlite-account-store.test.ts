import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { CONSOLE_TOKEN_PREFIX_LENGTH, KEY_PREFIX_LENGTH, type AccountStore } from '@signalbox/accounts';
import { createSQLiteAccountStore } from '@signalbox/store-sqlite';
import { describeAccountStoreContract } from './account-store-contract';
import { DROP_CACHE_LIFETIME_COLUMNS } from './cache-lifetime-upgrade';
import { DROP_UPSTREAM_CREDENTIAL_COLUMN } from './upstream-credential-upgrade';
import { DROP_CONVERSATION_KEY_COLUMN } from './conversation-key-upgrade';
import { DROP_CONFIG_VERSIONS_TABLE } from './config-versions-upgrade';
import { DROP_UPSTREAM_KIND_COLUMN } from './upstream-kind-upgrade';
import { DROP_AUDIT_LOG } from './audit-log-upgrade';
import { DROP_BUDGETS_AND_ALERTS } from './budget-upgrade';

const SERVER_SECRET = 'sqlite-test-server-secret';
// In memory where the machine has a tmpfs: the same files, without waiting on a disk at every open and close.
const directory = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'signalbox-store-sqlite-'));
let fileCount = 0;
const newFile = () => join(directory, `store-${++fileCount}.sqlite`);
let template: Promise<string> | undefined;
/** A new file as a store leaves one it opened and closed: a copy of one migrated once, so a contract test does not pay for every step. */
const migratedFile = async () => {
  template ??= (async () => {
    const path = newFile();
    await open(path).close();
    return path;
  })();
  const path = newFile();
  copyFileSync(await template, path);
  return path;
};
const T0 = 1_767_225_600_000;
const open = (
  path: string,
  options: {
    serverSecret?: string;
    now?: () => number;
    holdSweepIntervalMs?: number;
    singleGateway?: boolean;
    cacheRefreshMs?: number;
  } = {},
) => createSQLiteAccountStore({ path, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0, ...options });

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describeAccountStoreContract('sqlite :memory:', clock => open(':memory:', clock));
describeAccountStoreContract('sqlite file', async clock => open(await migratedFile(), clock));
describeAccountStoreContract('sqlite file, single gateway (holds in memory)', async clock =>
  open(await migratedFile(), { ...clock, singleGateway: true }),
);

describe('SQLite account store', () => {
  const opened: AccountStore[] = [];
  const track = (store: AccountStore) => (opened.push(store), store);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map(store => store.close()));
  });

  it('answers ping while open and rejects it once closed, so a readiness probe sees a closed store', async () => {
    const store = open(newFile());
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await expect(store.ping()).rejects.toThrow(/not open/);
  });

  it('never writes the secret: only its visible prefix is in the database bytes', async () => {
    const path = newFile();
    const store = track(open(path));
    const account = await store.createAccount({ name: 'bytes' });
    const { secret } = await store.createKey({ accountId: account.id, name: 'k' });
    const bytesWhileOpen = readStoreBytes(path);
    await store.close();
    const bytesAfterClose = readStoreBytes(path);
    for (const bytes of [bytesWhileOpen, bytesAfterClose]) {
      // The prefix proves we are reading the rows; the rest of the secret must be nowhere.
      expect(bytes.includes(Buffer.from(secret.slice(0, KEY_PREFIX_LENGTH)))).toBe(true);
      expect(bytes.includes(Buffer.from(secret))).toBe(false);
      expect(bytes.includes(Buffer.from(secret.slice(KEY_PREFIX_LENGTH)))).toBe(false);
    }
  });

  it('keeps a console token only as its digest and prefix, across reopen, and finds it only under its serverSecret', async () => {
    const path = newFile();
    const first = open(path);
    const account = await first.createAccount({ name: 'console' });
    const { secret, token } = await first.createConsoleToken({ accountId: account.id, name: 'alice' });
    await first.close();
    const bytes = readStoreBytes(path);
    expect(bytes.includes(Buffer.from(secret.slice(0, CONSOLE_TOKEN_PREFIX_LENGTH)))).toBe(true);
    expect(bytes.includes(Buffer.from(secret.slice(CONSOLE_TOKEN_PREFIX_LENGTH)))).toBe(false);

    const wrong = open(path, { serverSecret: 'another-server-secret' });
    expect(await wrong.findConsoleTokenBySecret(secret)).toBeUndefined();
    await wrong.close();
    const reopened = track(open(path));
    expect(await reopened.findConsoleTokenBySecret(secret)).toEqual(token);
  });

  it('adds console tokens to a database of the previous schema, keeping its accounts', async () => {
    const path = newFile();
    const current = open(path);
    const account = await current.createAccount({ name: 'before console tokens', balanceMicros: 300 });
    await current.close();
    const database = new DatabaseSync(path);
    database.exec(`${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_TABLE}${DROP_CACHE_LIFETIME_COLUMNS}${DROP_UPSTREAM_CREDENTIAL_COLUMN}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}ALTER TABLE api_keys DROP COLUMN disabled_by; ALTER TABLE accounts DROP COLUMN key_limit_ceiling; ALTER TABLE usage DROP COLUMN trace_id; DROP TABLE console_tokens; PRAGMA user_version = 5;`);
    database.close();

    const upgraded = track(open(path));
    expect(await upgraded.getAccount(account.id)).toEqual(account);
    const { secret, token } = await upgraded.createConsoleToken({ accountId: account.id, name: 'after' });
    expect(await upgraded.findConsoleTokenBySecret(secret)).toEqual(token);
  });

  it('upgrades a schema-7 database: a key disabled before counts as disabled by the operator, and accounts have no ceiling', async () => {
    const path = newFile();
    const current = open(path);
    const account = await current.createAccount({ name: 'before ceilings', balanceMicros: 300 });
    const active = (await current.createKey({ accountId: account.id, name: 'on' })).key;
    const disabled = (await current.createKey({ accountId: account.id, name: 'off', status: 'disabled' })).key;
    await current.close();
    const database = new DatabaseSync(path);
    database.exec(`${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_TABLE}${DROP_CACHE_LIFETIME_COLUMNS}${DROP_UPSTREAM_CREDENTIAL_COLUMN}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}ALTER TABLE api_keys DROP COLUMN disabled_by; ALTER TABLE accounts DROP COLUMN key_limit_ceiling; PRAGMA user_version = 7;`);
    database.close();

    const upgraded = track(open(path));
    expect(await upgraded.getKey(disabled.id)).toEqual({ ...disabled, disabledBy: 'operator' });
    expect(await upgraded.getKey(active.id)).toEqual(active);
    expect(await upgraded.getAccount(account.id)).toEqual(account);
    const ceiling = { concurrency: 2 };
    expect(await upgraded.updateAccount(account.id, { keyLimitCeiling: ceiling })).toEqual({ ...account, keyLimitCeiling: ceiling });
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 16 });
    check.close();
  });

  it('keeps accounts and keys across close and reopen, and releases the holds a closed store still had', async () => {
    const path = newFile();
    const first = open(path);
    const account = await first.createAccount({ name: 'durable', balanceMicros: 900, group: 'g' });
    const { secret, key } = await first.createKey({ accountId: account.id, name: 'k', allowedModels: ['m'] });
    const reservation = (await first.reserve(account.id, 400))!;
    await first.close();

    // The requests of a closed store can never settle: their holds belong to nobody and are let go.
    const second = track(open(path));
    expect(await second.getAccount(account.id)).toEqual({ ...account, reservedMicros: 0 });
    expect(await second.findKeyBySecret(secret)).toEqual(key);
    expect(await second.settle(reservation, 100)).toBeUndefined();
    expect(await second.getAccount(account.id)).toMatchObject({ balanceMicros: 900, reservedMicros: 0 });
  });

  it('never over-reserves when two store instances share one file', async () => {
    const path = newFile();
    const left = track(open(path));
    const right = track(open(path));
    const account = await left.createAccount({ name: 'shared', balanceMicros: 50 });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? left : right).reserve(account.id, 1)),
    );
    const granted = results.filter(result => result !== undefined);
    expect(granted).toHaveLength(50);
    expect(await right.getAccount(account.id)).toMatchObject({ balanceMicros: 50, reservedMicros: 50 });

    // A hold taken through one instance settles through the other, exactly once.
    await Promise.all(
      granted.flatMap(reservation => [left.settle(reservation, 1), right.settle(reservation, 1)]),
    );
    expect(await left.getAccount(account.id)).toMatchObject({ balanceMicros: 0, reservedMicros: 0 });
  });

  it('releases at open, at once, the holds of a previous boot that reused this process id (kill -9, then restart)', async () => {
    const path = newFile();
    const live = track(open(path));
    const account = await live.createAccount({ name: 'crash', balanceMicros: 2_000 });
    const held = (await live.reserve(account.id, 1_505, { expiresAt: Date.now() + 60 * 60 * 1000 }))!;
    // A boot that died without closing left its owner row: same host, same process id, another owner id.
    leaveHoldsOfDeadOwner(path, held.id, { pid: process.pid });

    const restarted = track(open(path));
    expect(await restarted.getAccount(account.id)).toMatchObject({ balanceMicros: 2_000, reservedMicros: 0 });
    expect(await restarted.reserve(account.id, 2_000)).toMatchObject({ amountMicros: 2_000 });
  });

  it('releases at open the holds of an owner whose process no longer exists, and keeps a live instance’s holds', async () => {
    const path = newFile();
    const live = track(open(path));
    const account = await live.createAccount({ name: 'crash', balanceMicros: 1_000 });
    const orphaned = (await live.reserve(account.id, 300))!;
    const kept = (await live.reserve(account.id, 200))!;
    const exited = spawnSync(process.execPath, ['-e', '']).pid!;
    leaveHoldsOfDeadOwner(path, orphaned.id, { pid: exited });

    track(open(path));
    expect(await live.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 200 });
    expect(await live.settle(kept, 50)).toEqual({ chargedMicros: 50, uncoveredMicros: 0 });
  });

  it('releases expired holds while open on its timer (the sweep runs in every process sharing the file)', async () => {
    const path = newFile();
    let clock = T0;
    const store = track(open(path, { now: () => clock }));
    const account = await store.createAccount({ name: 'expiry', balanceMicros: 1_000 });
    await store.reserve(account.id, 600, { expiresAt: T0 + 5 * 60 * 1000 });
    clock = T0 + 5 * 60 * 1000;
    expect(await store.releaseExpiredHolds(clock)).toBe(1);
    expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 0 });
  });

  it('migrates holds written by the previous schema: they expire an hour after they were made', async () => {
    const path = newFile();
    const current = open(path);
    const account = await current.createAccount({ name: 'legacy', balanceMicros: 1_000 });
    await current.close();
    const database = new DatabaseSync(path);
    // The version-1 shape of the schema, as an older build left it, with one hold of 250 in it.
    database.exec(`${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}
      ALTER TABLE api_keys DROP COLUMN disabled_by; ALTER TABLE accounts DROP COLUMN key_limit_ceiling;
      DROP TABLE console_tokens; DROP TABLE usage; DROP TABLE balance_events;
      DROP TABLE response_bytes; DROP TABLE response_items; DROP TABLE responses;
      DROP TABLE reservations; DROP TABLE hold_owners; ${DROP_CONFIG_VERSIONS_TABLE}PRAGMA user_version = 1;
      CREATE TABLE reservations (id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts (id),
        amount_micros INTEGER NOT NULL CHECK (amount_micros >= 0), created_at INTEGER NOT NULL) STRICT;
      CREATE INDEX reservations_by_created_at ON reservations (created_at);`);
    database.prepare("INSERT INTO reservations VALUES ('hold_legacy', ?, 250, ?)").run(account.id, T0);
    database.prepare('UPDATE accounts SET reserved_micros = 250 WHERE id = ?').run(account.id);
    database.close();

    const before = open(path, { now: () => T0 + 60 * 60 * 1000 - 1 });
    expect(await before.getAccount(account.id)).toMatchObject({ reservedMicros: 250 });
    await before.close();
    const after = track(open(path, { now: () => T0 + 60 * 60 * 1000 }));
    expect(await after.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 0 });
  });

  it('finds no key under a different serverSecret', async () => {
    const path = newFile();
    const original = open(path);
    const account = await original.createAccount({ name: 'secrets' });
    const { secret, key } = await original.createKey({ accountId: account.id, name: 'k' });
    await original.close();

    const wrong = open(path, { serverSecret: 'another-server-secret' });
    expect(await wrong.findKeyBySecret(secret)).toBeUndefined();
    expect(await wrong.getKey(key.id)).toEqual(key);
    await wrong.close();
    const right = track(open(path));
    expect(await right.findKeyBySecret(secret)).toEqual(key);
  });

  it('refuses an empty serverSecret and a schema newer than it knows', () => {
    expect(() => open(':memory:', { serverSecret: '' })).toThrow(/serverSecret/);
    const path = newFile();
    const database = new DatabaseSync(path);
    database.exec('PRAGMA user_version = 999');
    database.close();
    expect(() => open(path)).toThrow(/newer/);
  });

  it('closes idempotently and rejects calls after close', async () => {
    const store = open(':memory:');
    await store.close();
    await store.close();
    await expect(store.listAccounts()).rejects.toThrow();
  });
});

/** The main file plus the WAL and shared-memory files when present: everything SQLite wrote. */
function readStoreBytes(path: string): Buffer {
  const parts = [path, `${path}-wal`, `${path}-shm`].filter(file => existsSync(file));
  return Buffer.concat(parts.map(file => readFileSync(file)));
}

/**
 * Moves a hold to an owner that died without closing its store (its row left behind), as a process
 * killed with SIGKILL leaves it: on this host, under `pid`, with an owner id no open store has.
 */
function leaveHoldsOfDeadOwner(path: string, reservationId: string, owner: { pid: number }): void {
  const database = new DatabaseSync(path);
  database
    .prepare("INSERT INTO hold_owners (id, host, pid, started_at) VALUES ('owner_dead', ?, ?, 0)")
    .run(hostname(), owner.pid);
  const changed = database
    .prepare("UPDATE reservations SET owner_id = 'owner_dead' WHERE id = ?")
    .run(reservationId).changes;
  database.close();
  expect(changed).toBe(1);
}
