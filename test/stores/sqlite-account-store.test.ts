import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { KEY_PREFIX_LENGTH, type AccountStore } from '@switchyard/accounts';
import { createSQLiteAccountStore } from '@switchyard/store-sqlite';
import { describeAccountStoreContract } from './account-store-contract';

const SERVER_SECRET = 'sqlite-test-server-secret';
const directory = mkdtempSync(join(tmpdir(), 'switchyard-store-sqlite-'));
let fileCount = 0;
const newFile = () => join(directory, `store-${++fileCount}.sqlite`);
const open = (path: string, options: { serverSecret?: string; staleReservationMs?: number } = {}) =>
  createSQLiteAccountStore({ path, serverSecret: SERVER_SECRET, ...options });

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describeAccountStoreContract('sqlite :memory:', () => open(':memory:'));
describeAccountStoreContract('sqlite file', () => open(newFile()));

describe('SQLite account store', () => {
  const opened: AccountStore[] = [];
  const track = (store: AccountStore) => (opened.push(store), store);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map(store => store.close()));
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

  it('keeps accounts, keys and holds across close and reopen', async () => {
    const path = newFile();
    const first = open(path);
    const account = await first.createAccount({ name: 'durable', balanceMicros: 900, group: 'g' });
    const { secret, key } = await first.createKey({ accountId: account.id, name: 'k', allowedModels: ['m'] });
    const reservation = (await first.reserve(account.id, 400))!;
    await first.close();

    const second = track(open(path));
    expect(await second.getAccount(account.id)).toEqual({ ...account, reservedMicros: 400 });
    expect(await second.findKeyBySecret(secret)).toEqual(key);
    await second.settle(reservation, 100);
    expect(await second.getAccount(account.id)).toMatchObject({ balanceMicros: 800, reservedMicros: 0 });
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

  it('releases holds older than staleReservationMs on open and keeps younger ones', async () => {
    const path = newFile();
    const crashed = open(path);
    const account = await crashed.createAccount({ name: 'stale', balanceMicros: 1000 });
    const old = (await crashed.reserve(account.id, 300))!;
    const recent = (await crashed.reserve(account.id, 200))!;
    await crashed.close();
    backdateReservation(path, old.id, 2 * 60 * 60 * 1000);

    const reopened = track(open(path));
    expect(await reopened.getAccount(account.id)).toMatchObject({ balanceMicros: 1000, reservedMicros: 200 });
    await reopened.settle(old, 300);
    expect(await reopened.getAccount(account.id)).toMatchObject({ balanceMicros: 1000, reservedMicros: 200 });
    await reopened.settle(recent, 50);
    expect(await reopened.getAccount(account.id)).toMatchObject({ balanceMicros: 950, reservedMicros: 0 });
  });

  it('honours a custom staleReservationMs and Infinity keeps every hold', async () => {
    const path = newFile();
    const crashed = open(path);
    const account = await crashed.createAccount({ name: 'stale', balanceMicros: 1000 });
    const hold = (await crashed.reserve(account.id, 300))!;
    await crashed.close();
    backdateReservation(path, hold.id, 10 * 60 * 1000);

    const keeping = open(path, { staleReservationMs: Number.POSITIVE_INFINITY });
    expect(await keeping.getAccount(account.id)).toMatchObject({ reservedMicros: 300 });
    await keeping.close();
    const defaultBound = open(path);
    expect(await defaultBound.getAccount(account.id)).toMatchObject({ reservedMicros: 300 });
    await defaultBound.close();
    const strict = track(open(path, { staleReservationMs: 5 * 60 * 1000 }));
    expect(await strict.getAccount(account.id)).toMatchObject({ reservedMicros: 0, balanceMicros: 1000 });
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

/** Makes a hold look `ageMs` older, as if a crashed process had left it behind that long ago. */
function backdateReservation(path: string, reservationId: string, ageMs: number): void {
  const database = new DatabaseSync(path);
  const changed = database
    .prepare('UPDATE reservations SET created_at = created_at - ? WHERE id = ?')
    .run(ageMs, reservationId).changes;
  database.close();
  expect(changed).toBe(1);
}
