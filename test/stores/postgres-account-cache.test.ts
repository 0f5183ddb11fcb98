import pg from 'pg';
import type { Account, AccountStore } from '@signalbox/accounts';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { waitUntil } from '../helpers/throwaway-process';
import { ignoreTeardownErrors, usePostgresTestDatabases } from './postgres-test-databases';

const SERVER_SECRET = 'postgres-account-cache-server-secret';
const ACCOUNTS_CHANNEL = 'signalbox_accounts';
const databases = usePostgresTestDatabases();

/**
 * The account row a request reads (`getAccountForRequest`) is kept by each instance until a change
 * of that account is announced on `signalbox_accounts`: two instances on one database, the change
 * made on one and seen on the other as the announcement arrives, never by waiting for an expiry.
 */
describe('PostgreSQL account store: a request’s account kept until its change is announced', () => {
  const opened: AccountStore[] = [];
  const pools: pg.Pool[] = [];
  const open = async (url: string) => {
    const store = await createPostgresAccountStore({ connectionString: url, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0 });
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

  it('sees a subscription ended and a top-up made on another instance as the change is announced, and at once where it was made', async () => {
    const url = await databases.createDatabase();
    const serving = await open(url);
    const managing = await open(url);
    const database = newPool(url);
    await waitUntilListeningOnAccounts(database, 2);
    const account = await managing.createAccount({ name: 'shared', balanceMicros: 1_000 });
    expect(await serving.getAccountForRequest!(account.id)).toMatchObject({ subscription: 'active', balanceMicros: 1_000 });

    // A change nobody announces (the trigger off) is not seen: the row is kept, not read again.
    await database.query('ALTER TABLE accounts DISABLE TRIGGER accounts_announce');
    await database.query("UPDATE accounts SET name = 'renamed quietly' WHERE id = $1", [account.id]);
    expect(await serving.getAccountForRequest!(account.id)).toMatchObject({ name: 'shared' });
    // getAccount reads the row every time.
    expect(await serving.getAccount(account.id)).toMatchObject({ name: 'renamed quietly' });
    await database.query('ALTER TABLE accounts ENABLE TRIGGER accounts_announce');

    await managing.updateAccount(account.id, { subscription: 'inactive' });
    expect(await managing.getAccountForRequest!(account.id)).toMatchObject({ subscription: 'inactive' });
    await waitForAccount(serving, account.id, found => found?.subscription === 'inactive');

    await managing.adjustBalance(account.id, 5_000);
    expect(await managing.getAccountForRequest!(account.id)).toMatchObject({ balanceMicros: 6_000 });
    await waitForAccount(serving, account.id, found => found?.balanceMicros === 6_000);
  });

  it('reads the account again after a hold it promised was refused: the kept balance is a hint, the rows decide', async () => {
    const url = await databases.createDatabase();
    const serving = await open(url);
    const spending = await open(url);
    await waitUntilListeningOnAccounts(newPool(url), 2);
    const account = await spending.createAccount({ name: 'spent elsewhere', balanceMicros: 1_000 });
    expect(await serving.getAccountForRequest!(account.id)).toMatchObject({ balanceMicros: 1_000 });
    // Spent through the other instance: a lower balance is not announced, the kept row still says 1 000.
    await spending.adjustBalance(account.id, -900);
    expect(await serving.getAccountForRequest!(account.id)).toMatchObject({ balanceMicros: 1_000 });
    expect(await serving.reserve(account.id, 500)).toBeUndefined();
    expect(await serving.getAccountForRequest!(account.id)).toMatchObject({ balanceMicros: 100 });
  });

  it('announces what a request reads and a top-up, never a hold or a charge', async () => {
    const url = await databases.createDatabase();
    const store = await open(url);
    const charged = await store.createAccount({ name: 'charged', balanceMicros: 1_000 });
    const marker = await store.createAccount({ name: 'marker' });
    const listener = new pg.Client({ connectionString: url });
    listener.on('error', () => undefined);
    const payloads: string[] = [];
    listener.on('notification', message => message.channel === ACCOUNTS_CHANNEL && payloads.push(message.payload ?? ''));
    await listener.connect();
    try {
      await listener.query(`LISTEN ${ACCOUNTS_CHANNEL}`);
      const hold = (await store.reserve(charged.id, 300))!;
      await store.settle(hold, 200);
      await store.adjustBalance(charged.id, -100);
      // Announcements arrive in commit order: the marker's rename comes after everything above.
      await store.updateAccount(marker.id, { name: 'renamed' });
      await waitUntil(() => payloads.length > 0, { what: () => 'an announcement', exited: () => false, timeoutMs: 10_000 });
      expect(payloads[0]).toBe(marker.id);
      await store.adjustBalance(charged.id, 100);
      await waitUntil(() => payloads.length > 1, { what: () => 'the top-up announced', exited: () => false, timeoutMs: 10_000 });
      expect(payloads).toEqual([marker.id, charged.id]);
    } finally {
      await listener.end();
    }
  });

  it('forgets the accounts it kept when its listening connection is lost, and keeps them again once it listens', async () => {
    const url = await databases.createDatabase();
    const serving = await open(url);
    const database = newPool(url);
    await waitUntilListeningOnAccounts(database, 1);
    const account = await serving.createAccount({ name: 'kept' });
    expect(await serving.getAccountForRequest!(account.id)).toMatchObject({ subscription: 'active' });
    await database.query('ALTER TABLE accounts DISABLE TRIGGER accounts_announce');
    await database.query("UPDATE accounts SET subscription = 'inactive' WHERE id = $1", [account.id]);
    expect(await serving.getAccountForRequest!(account.id)).toMatchObject({ subscription: 'active' });
    await database.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()");
    await waitForAccount(serving, account.id, found => found?.subscription === 'inactive');
    // Listening again: kept, and a change announced from then on is seen as before.
    await waitUntilListeningOnAccounts(database, 1);
    await database.query('ALTER TABLE accounts ENABLE TRIGGER accounts_announce');
    await serving.getAccountForRequest!(account.id);
    await database.query("UPDATE accounts SET subscription = 'active' WHERE id = $1", [account.id]);
    await waitForAccount(serving, account.id, found => found?.subscription === 'active');
  });
});

async function waitForAccount(store: AccountStore, id: string, seen: (account: Account | undefined) => boolean): Promise<void> {
  let last: Account | undefined;
  await waitUntil(async () => seen((last = await store.getAccountForRequest!(id))), {
    what: () => `the account's change (it is ${JSON.stringify(last)})`,
    exited: () => false,
    timeoutMs: 10_000,
  });
}

/** Until `count` backends of the database have run `LISTEN` on the accounts channel (each store listens on it last) and wait. */
async function waitUntilListeningOnAccounts(database: pg.Pool, count: number): Promise<void> {
  const listening = async () =>
    (await database.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN ${ACCOUNTS_CHANNEL}' AND state = 'idle'`)).rows[0].n;
  await waitUntil(async () => (await listening()) >= count, { what: () => `${count} listening connections`, exited: () => false, timeoutMs: 10_000 });
}
