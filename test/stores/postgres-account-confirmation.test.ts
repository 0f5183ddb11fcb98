import pg from 'pg';
import type { AccountStore } from '@signalbox/accounts';
import { GatewayError } from '@signalbox/core';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { reportStoreOutages } from '../../examples/server/src/report-store-outages';
import { queryText, stallQuery } from '../helpers/stall-query';
import { ignoreTeardownErrors, usePostgresTestDatabases } from './postgres-test-databases';

const SERVER_SECRET = 'postgres-confirmation-server-secret';
/** The statement that reads one account's row. */
const SELECT_ACCOUNT = 'SELECT id, name, balance_micros, reserved_micros, subscription, group_name, key_limit_ceiling, created_at FROM accounts WHERE id = $1';
/** Requests of one account confirmed at once. */
const CONCURRENT = 16;
const databases = usePostgresTestDatabases();

/** How many times the account's row was read since `stallQuery` spied on `pg`. */
const accountReads = () => jest.mocked(pg.Client.prototype.query).mock.calls.filter(([query]) => queryText(query) === SELECT_ACCOUNT).length;

/**
 * `confirmAccountForRequest`, which confirms each request admitted with the account kept for
 * requests: the requests of one account that overlap a read of its row share it (one statement),
 * an answered read is never reused, a failed read refuses every request that joined it, and
 * `getAccount` stays a read of its own on every call.
 */
describe('PostgreSQL account store: confirming the account of concurrent requests', () => {
  let store: AccountStore;
  let pool: pg.Pool;

  beforeEach(async () => {
    const url = await databases.createMigratedDatabase();
    pool = ignoreTeardownErrors(new pg.Pool({ connectionString: url, max: 8 }));
    store = await createPostgresAccountStore({ pool, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0 });
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
    await pool.end();
  });

  it('reads the row once for requests that arrive while its read is in flight; a request after the answer starts a new read', async () => {
    const account = await store.createAccount({ name: 'busy', balanceMicros: 1_000 });
    const stalled = stallQuery(SELECT_ACCOUNT);
    const first = store.confirmAccountForRequest!(account.id);
    await stalled.reached;
    const joined = Array.from({ length: CONCURRENT - 1 }, () => store.confirmAccountForRequest!(account.id));
    stalled.release();
    const confirmed = await Promise.all([first, ...joined]);
    expect(confirmed).toEqual(Array.from({ length: CONCURRENT }, () => account));
    expect(accountReads()).toBe(1);
    // Each request gets its own object.
    expect(new Set(confirmed).size).toBe(CONCURRENT);
    expect(await store.confirmAccountForRequest!(account.id)).toEqual(account);
    expect(accountReads()).toBe(2);
  });

  it('refuses an account made inactive between two reads at the next read, not with the one before', async () => {
    const account = await store.createAccount({ name: 'ending', balanceMicros: 1_000 });
    const stalled = stallQuery(SELECT_ACCOUNT);
    const before = store.confirmAccountForRequest!(account.id);
    await stalled.reached;
    stalled.release();
    expect((await before)?.subscription).toBe('active');
    await pool.query("UPDATE accounts SET subscription = 'inactive' WHERE id = $1", [account.id]);
    const after = await Promise.all([store.confirmAccountForRequest!(account.id), store.confirmAccountForRequest!(account.id)]);
    expect(after.map(found => found?.subscription)).toEqual(['inactive', 'inactive']);
    expect(accountReads()).toBe(2);
  });

  it('never serves a request that comes after a change made through this store with a read begun before it', async () => {
    const account = await store.createAccount({ name: 'ended-here', balanceMicros: 1_000 });
    const stalled = stallQuery(SELECT_ACCOUNT);
    const before = store.confirmAccountForRequest!(account.id);
    await stalled.reached;
    await store.updateAccount(account.id, { subscription: 'inactive' });
    const after = store.confirmAccountForRequest!(account.id);
    stalled.release();
    await before;
    expect((await after)?.subscription).toBe('inactive');
    // The held read (begun before the change) and one of the later request's own: it did not join.
    expect(accountReads()).toBe(2);
  });

  it('rejects every request that joined a failed read, each with its own 503 through the gateway, and reads again after it', async () => {
    const account = await store.createAccount({ name: 'outage', balanceMicros: 1_000 });
    const gateway = reportStoreOutages(store);
    const stalled = stallQuery(SELECT_ACCOUNT);
    const first = gateway.confirmAccountForRequest!(account.id);
    await stalled.reached;
    const joined = Array.from({ length: 3 }, () => gateway.confirmAccountForRequest!(account.id));
    stalled.fail(new Error('Connection terminated unexpectedly'));
    const refusals = await Promise.all([first, ...joined].map(confirming => confirming.then(() => undefined, (error: unknown) => error)));
    expect(refusals.map(refusal => GatewayError.isInstance(refusal) && refusal.code)).toEqual(Array.from({ length: 4 }, () => 'STORE_UNAVAILABLE'));
    expect(new Set(refusals).size).toBe(4);
    expect(accountReads()).toBe(1);
    expect(await gateway.confirmAccountForRequest!(account.id)).toEqual(account);
    expect(accountReads()).toBe(2);
  });

  it('keeps getAccount a read of its own on every call, even while a confirmation read is in flight', async () => {
    const account = await store.createAccount({ name: 'admin', balanceMicros: 1_000 });
    const stalled = stallQuery(SELECT_ACCOUNT);
    const confirming = store.confirmAccountForRequest!(account.id);
    await stalled.reached;
    expect(await Promise.all([store.getAccount(account.id), store.getAccount(account.id)])).toEqual([account, account]);
    expect(accountReads()).toBe(3);
    stalled.release();
    expect(await confirming).toEqual(account);
  });
});
