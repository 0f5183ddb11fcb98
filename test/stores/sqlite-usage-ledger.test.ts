import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { AccountStore } from '@signalbox/accounts';
import { createSQLiteAccountStore } from '@signalbox/store-sqlite';
import { usageCommit } from './describe-usage-ledger-contract';
import { commitRowsBeforeCacheLifetimes, DROP_CACHE_LIFETIME_COLUMNS, expectCacheLifetimesAfterUpgrade } from './cache-lifetime-upgrade';
import { commitRowBeforeUpstreamCredentials, DROP_UPSTREAM_CREDENTIAL_COLUMN, expectUpstreamCredentialsAfterUpgrade } from './upstream-credential-upgrade';
import { DROP_CONVERSATION_KEY_COLUMN } from './conversation-key-upgrade';
import { DROP_CONFIG_VERSIONS_TABLE } from './config-versions-upgrade';
import { commitRowBeforeUpstreamKinds, DROP_UPSTREAM_KIND_COLUMN, expectUpstreamKindsAfterUpgrade } from './upstream-kind-upgrade';
import { DROP_AUDIT_LOG } from './audit-log-upgrade';
import { DROP_BUDGETS_AND_ALERTS } from './budget-upgrade';

const directory = mkdtempSync(join(tmpdir(), 'signalbox-usage-ledger-'));
let fileCount = 0;
const newFile = () => join(directory, `ledger-${++fileCount}.sqlite`);
const open = (path: string) => createSQLiteAccountStore({ path, serverSecret: 'ledger-test-server-secret', holdSweepIntervalMs: 0 });

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('SQLite usage ledger', () => {
  const opened: AccountStore[] = [];
  const track = (store: AccountStore) => (opened.push(store), store);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map(store => store.close()));
  });

  it('writes a batch all or nothing: a commit that fails rolls back the charges and rows of the whole batch', async () => {
    const store = track(open(':memory:'));
    const account = await store.createAccount({ name: 'atomic', balanceMicros: 1_000 });
    const holds = [(await store.reserve(account.id, 100))!, (await store.reserve(account.id, 100))!];
    const good = usageCommit({ accountId: account.id }, { reservation: holds[0]!, costMicros: 60 });
    // A row the table refuses (no protocol: NOT NULL), after a good one in the same batch.
    const broken = usageCommit({ accountId: account.id, protocol: null as unknown as string }, { reservation: holds[1]!, costMicros: 70 });
    await expect(store.commitUsage([good, broken])).rejects.toThrow(/NOT NULL/);
    expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 200 });
    expect(await store.listUsage({}, { limit: 5 })).toEqual({ entries: [] });
    // Both holds are intact: the batch can be committed again once it is well formed.
    const fixed = { ...broken, entry: { ...broken.entry, protocol: 'openai-chat' } };
    expect(await store.commitUsage([good, fixed])).toEqual([
      { chargedMicros: 60, uncoveredMicros: 0 },
      { chargedMicros: 70, uncoveredMicros: 0 },
    ]);
    expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 870, reservedMicros: 0 });
  });

  it('leaves neither charges nor rows when the database is closed under a batch, and a reopen releases the holds', async () => {
    const path = newFile();
    const store = open(path);
    const account = await store.createAccount({ name: 'closed', balanceMicros: 1_000 });
    const reservation = (await store.reserve(account.id, 300))!;
    await store.close();
    await expect(store.commitUsage([usageCommit({ accountId: account.id }, { reservation, costMicros: 120 })])).rejects.toThrow();

    const reopened = track(open(path));
    expect(await reopened.getAccount(account.id)).toMatchObject({ balanceMicros: 1_000, reservedMicros: 0 });
    expect(await reopened.listUsage({}, { limit: 5 })).toEqual({ entries: [] });
  });

  it('deletes a large backlog of old rows in chunks with a turn of the event loop between them, so requests are served meanwhile', async () => {
    const store = track(open(':memory:'));
    const time = Date.UTC(2026, 0, 1);
    const USAGE_DELETE_CHUNK = 5000; // rows per deletion transaction, as the README states
    await store.commitUsage(Array.from({ length: 2 * USAGE_DELETE_CHUNK + 1 }, () => usageCommit({ time })));
    let turns = 0;
    const countTurns = () => {
      turns += 1;
      if (turns < 10) setImmediate(countTurns);
    };
    setImmediate(countTurns);
    expect(await store.deleteUsageBefore(time + 1)).toBe(2 * USAGE_DELETE_CHUNK + 1);
    // Three chunks: the event loop came round between them, not only after the last one.
    expect(turns).toBeGreaterThanOrEqual(1);
    expect(await store.listUsage({}, { limit: 1 })).toEqual({ entries: [] });
  });

  it('keeps rows and balance events across close and reopen', async () => {
    const path = newFile();
    const first = open(path);
    const account = await first.createAccount({ name: 'durable', balanceMicros: 2_000 });
    await first.adjustBalance(account.id, 500);
    const reservation = (await first.reserve(account.id, 400))!;
    const commit = usageCommit({ accountId: account.id, warnings: ['temperature (lossy-conversion)'] }, { reservation, costMicros: 321 });
    await first.commitUsage([commit]);
    await first.close();

    const second = track(open(path));
    expect((await second.listUsage({ accountId: account.id }, { limit: 5 })).entries).toEqual([
      { ...commit.entry, costMicros: 321, uncoveredMicros: 0 },
    ]);
    expect((await second.listBalanceEvents(account.id, { limit: 5 })).events.map(event => event.kind)).toEqual(['top-up', 'opening']);
    expect(await second.getAccount(account.id)).toMatchObject({ balanceMicros: 2_500 - 321 });
  });

  it('upgrades a schema-4 database: each existing account gets an opening event of its balance, so the identity holds', async () => {
    const path = newFile();
    const current = open(path);
    const account = await current.createAccount({ name: 'before the ledger', balanceMicros: 4_000 });
    await current.adjustBalance(account.id, -250);
    await current.close();
    const database = new DatabaseSync(path);
    database.exec(`${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_TABLE}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}ALTER TABLE api_keys DROP COLUMN disabled_by; ALTER TABLE accounts DROP COLUMN key_limit_ceiling; DROP TABLE console_tokens; DROP TABLE usage; DROP TABLE balance_events; PRAGMA user_version = 4;`);
    database.close();

    const upgraded = track(open(path));
    const { events } = await upgraded.listBalanceEvents(account.id, { limit: 5 });
    expect(events).toEqual([
      { id: `bev_opening_${account.id}`, accountId: account.id, time: account.createdAt, kind: 'opening', deltaMicros: 3_750, balanceAfterMicros: 3_750 },
    ]);
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 16 });
    check.close();
  });

  it('upgrades a schema-6 database: its rows are kept without a trace id, and new rows keep theirs', async () => {
    const path = newFile();
    const current = open(path);
    const before = usageCommit({ requestId: 'req_before_traces' });
    await current.commitUsage([before]);
    await current.close();
    const database = new DatabaseSync(path);
    database.exec(`${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_TABLE}${DROP_CACHE_LIFETIME_COLUMNS}${DROP_UPSTREAM_CREDENTIAL_COLUMN}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}ALTER TABLE api_keys DROP COLUMN disabled_by; ALTER TABLE accounts DROP COLUMN key_limit_ceiling; ALTER TABLE usage DROP COLUMN trace_id; PRAGMA user_version = 6;`);
    database.close();

    const upgraded = track(open(path));
    const after = usageCommit({ requestId: 'req_after_traces', time: before.entry.time + 1, traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
    await upgraded.commitUsage([after]);
    const { entries } = await upgraded.listUsage({}, { limit: 5 });
    expect(entries.map(entry => [entry.requestId, entry.traceId])).toEqual([
      ['req_after_traces', '4bf92f3577b34da6a3ce929d0e0e4736'],
      ['req_before_traces', undefined],
    ]);
    expect('traceId' in entries[1]!).toBe(false);
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 16 });
    check.close();
  });

  it('upgrades a schema-8 database: its ledger rows count their cache writes as 5-minute ones and saved nothing', async () => {
    const path = newFile();
    const current = open(path);
    await commitRowsBeforeCacheLifetimes(current);
    await current.close();
    const database = new DatabaseSync(path);
    database.exec(`${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_TABLE}${DROP_CACHE_LIFETIME_COLUMNS}${DROP_UPSTREAM_CREDENTIAL_COLUMN}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}PRAGMA user_version = 8;`);
    database.close();

    await expectCacheLifetimesAfterUpgrade(track(open(path)));
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 16 });
    check.close();
  });

  it('upgrades a schema-9 database: its rows are kept without an upstream credential, and new rows keep theirs', async () => {
    const path = newFile();
    const current = open(path);
    await commitRowBeforeUpstreamCredentials(current);
    await current.close();
    const database = new DatabaseSync(path);
    database.exec(`${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_TABLE}${DROP_UPSTREAM_CREDENTIAL_COLUMN}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}PRAGMA user_version = 9;`);
    database.close();

    await expectUpstreamCredentialsAfterUpgrade(track(open(path)));
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 16 });
    check.close();
  });

  it('upgrades a schema-11 database: its rows are kept without an upstream kind, and new rows keep theirs', async () => {
    const path = newFile();
    const current = open(path);
    await commitRowBeforeUpstreamKinds(current);
    await current.close();
    const database = new DatabaseSync(path);
    database.exec(`${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_TABLE}${DROP_UPSTREAM_KIND_COLUMN}PRAGMA user_version = 11;`);
    database.close();

    await expectUpstreamKindsAfterUpgrade(track(open(path)));
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 16 });
    check.close();
  });

  it.each([
    ['no filter', '', 'usage_by_time'],
    ['an account', 'WHERE account_id = :accountId', 'usage_by_account'],
    ['account and model', 'WHERE account_id = :accountId AND model = :model', 'usage_by_account_model'],
    ['account and status', 'WHERE account_id = :accountId AND status = :status', 'usage_by_account_status'],
    ['a key', 'WHERE key_id = :keyId', 'usage_by_key'],
    ['a model', 'WHERE model = :model', 'usage_by_model'],
    ['a status', 'WHERE status = :status', 'usage_by_status'],
    ['an account after a cursor', 'WHERE account_id = :accountId AND (time, request_id) < (:afterTime, :afterRequestId)', 'usage_by_account'],
  ])('reads a newest-first page filtered by %s from its index, without sorting', (_name, where, index) => {
    // The plan of the page query the store builds (equalities, newest first, one row past the
    // page), on a database the store gave its schema.
    const path = newFile();
    void open(path).close();
    const database = new DatabaseSync(path);
    const values = { accountId: 'a', model: 'm', status: 200, keyId: 'k', afterTime: 1, afterRequestId: 'r' };
    const parameters = Object.fromEntries(Object.entries(values).filter(([name]) => where.includes(`:${name}`)));
    const plan = database
      .prepare(`EXPLAIN QUERY PLAN SELECT * FROM usage ${where} ORDER BY time DESC, request_id DESC LIMIT 51`)
      .all(parameters)
      .map(row => String(row['detail']))
      .join(' | ');
    database.close();
    expect(plan).toMatch(new RegExp(`INDEX ${index}\\b`));
    expect(plan).not.toContain('TEMP B-TREE');
  });
});
