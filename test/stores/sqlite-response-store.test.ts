import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { storedResponseBytes, type AccountStore } from '@signalbox/accounts';
import { createSQLiteAccountStore } from '@signalbox/store-sqlite';
import { foundItem, storedResponse } from './describe-response-store-contract';
import { DROP_CONVERSATION_KEY_COLUMN } from './conversation-key-upgrade';
import { DROP_CONFIG_VERSIONS_TABLE } from './config-versions-upgrade';
import { DROP_UPSTREAM_KIND_COLUMN } from './upstream-kind-upgrade';
import { DROP_AUDIT_LOG } from './audit-log-upgrade';
import { DROP_BUDGETS_AND_ALERTS } from './budget-upgrade';

const directory = mkdtempSync(join(tmpdir(), 'signalbox-response-store-'));
let fileCount = 0;
const newFile = () => join(directory, `responses-${++fileCount}.sqlite`);
const T0 = 1_767_225_600_000;
const ROOMY = { maxBytesPerAccount: 64 * 1024 * 1024 };
const open = (path: string, now: () => number = () => T0) =>
  createSQLiteAccountStore({ path, serverSecret: 'sqlite-response-secret', holdSweepIntervalMs: 0, now });

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('SQLite response store', () => {
  const opened: AccountStore[] = [];
  const track = (store: AccountStore) => (opened.push(store), store);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map(store => store.close()));
  });

  it('keeps responses and their items across close and reopen of the same file', async () => {
    const path = newFile();
    const first = open(path);
    const account = await first.createAccount({ name: 'durable' });
    const record = storedResponse(account.id, 'resp_durable', { previousResponseId: 'resp_before' });
    await first.saveResponse(record, ROOMY);
    await first.close();

    const second = track(open(path));
    expect(await second.getResponse(account.id, 'resp_durable', T0)).toEqual(record);
    const found = await second.findItems(account.id, ['msg_in_resp_durable', 'msg_out_resp_durable'], T0);
    expect(found).toEqual(
      new Map([
        ['msg_in_resp_durable', foundItem(record.inputItems[0]!.item)],
        ['msg_out_resp_durable', foundItem((record.response['output'] as unknown[])[0])],
      ]),
    );
  });

  it("sees the other instance's saves and deletes when two stores share one file", async () => {
    const path = newFile();
    const left = track(open(path));
    const right = track(open(path));
    const account = await left.createAccount({ name: 'shared' });
    const record = storedResponse(account.id, 'resp_shared');
    await left.saveResponse(record, ROOMY);
    expect(await right.getResponse(account.id, 'resp_shared', T0)).toEqual(record);
    expect((await right.findItems(account.id, ['msg_out_resp_shared'], T0)).size).toBe(1);
    expect(await right.deleteResponse(account.id, 'resp_shared')).toBe(true);
    expect(await left.getResponse(account.id, 'resp_shared', T0)).toBeUndefined();
    expect(await left.deleteResponse(account.id, 'resp_shared')).toBe(false);
  });

  it('enforces one cap over the saves of every instance sharing the file', async () => {
    const path = newFile();
    const stores = [track(open(path)), track(open(path))];
    const account = await stores[0]!.createAccount({ name: 'capped' });
    const turns = Array.from({ length: 20 }, (_, turn) =>
      storedResponse(account.id, `resp_turn_${String(turn).padStart(2, '0')}`, { createdAt: T0 + turn }),
    );
    const cap = { maxBytesPerAccount: storedResponseBytes(turns[0]!) * 3 };
    await Promise.all(turns.map((record, turn) => stores[turn % 2]!.saveResponse(record, cap)));
    const present = await Promise.all(turns.map(record => stores[1]!.getResponse(account.id, record.id, T0)));
    expect(present.filter(Boolean).map(record => record!.id)).toEqual(['resp_turn_17', 'resp_turn_18', 'resp_turn_19']);
  });

  it('round-trips a response of 1 MiB of JSON and finds its item', async () => {
    const store = track(open(newFile()));
    const account = await store.createAccount({ name: 'large' });
    // Multi-byte characters: the cap counts UTF-8 bytes, and SQLite must hand them back intact.
    const text = 'ü€'.repeat(210_000);
    const record = storedResponse(account.id, 'resp_large');
    (record.response['output'] as Array<{ content: Array<{ text: string }> }>)[0]!.content[0]!.text = text;
    expect(storedResponseBytes(record)).toBeGreaterThan(1024 * 1024);
    await store.saveResponse(record, ROOMY);
    expect(await store.getResponse(account.id, 'resp_large', T0)).toEqual(record);
    const item = (await store.findItems(account.id, ['msg_out_resp_large'], T0)).get('msg_out_resp_large');
    expect(item).toEqual(foundItem((record.response['output'] as unknown[])[0]));
  });

  it('deletes responses that expired while the file was closed when it opens again', async () => {
    const path = newFile();
    const first = open(path);
    const account = await first.createAccount({ name: 'expiring' });
    await first.saveResponse(storedResponse(account.id, 'resp_gone', { expiresAt: T0 + 1_000 }), ROOMY);
    await first.saveResponse(storedResponse(account.id, 'resp_kept', { expiresAt: T0 + 1_001 }), ROOMY);
    await first.close();

    const reopened = track(open(path, () => T0 + 1_000));
    // Read at T0, before either expiry: only a deleted row can be missing.
    expect(await reopened.getResponse(account.id, 'resp_gone', T0)).toBeUndefined();
    expect(await reopened.getResponse(account.id, 'resp_kept', T0)).toMatchObject({ id: 'resp_kept' });
    expect(await reopened.deleteExpiredResponses(T0 + 1_000)).toBe(0);
  });

  it('upgrades a schema-2 database in place: accounts kept, responses stored', async () => {
    const path = newFile();
    const current = open(path);
    const account = await current.createAccount({ name: 'before responses', balanceMicros: 700 });
    await current.close();
    const database = new DatabaseSync(path);
    // The shape a build without stored conversations left: no response (or ledger or console token) tables, user_version 2.
    database.exec(`${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_TABLE}ALTER TABLE api_keys DROP COLUMN disabled_by; ALTER TABLE accounts DROP COLUMN key_limit_ceiling; DROP TABLE console_tokens; DROP TABLE usage; DROP TABLE balance_events; DROP TABLE response_bytes; DROP TABLE response_items; DROP TABLE responses; PRAGMA user_version = 2;`);
    database.close();

    const upgraded = track(open(path));
    expect(await upgraded.getAccount(account.id)).toEqual(account);
    const record = storedResponse(account.id, 'resp_after_upgrade');
    await upgraded.saveResponse(record, ROOMY);
    expect(await upgraded.getResponse(account.id, 'resp_after_upgrade', T0)).toEqual(record);
    const check = new DatabaseSync(path, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 16 });
    check.close();
  });

  it("upgrades a schema-3 database with stored responses: each account's total is carried over, so the cap still evicts the oldest", async () => {
    const path = newFile();
    const current = open(path);
    const account = await current.createAccount({ name: 'stored before totals' });
    const older = storedResponse(account.id, 'resp_older', { createdAt: T0 - 2 });
    const newer = storedResponse(account.id, 'resp_newer', { createdAt: T0 - 1 });
    await current.saveResponse(older, ROOMY);
    await current.saveResponse(newer, ROOMY);
    await current.close();
    const database = new DatabaseSync(path);
    // The shape schema 3 left: no running totals and no triggers keeping them (and no ledger).
    database.exec(`${DROP_BUDGETS_AND_ALERTS}${DROP_AUDIT_LOG}${DROP_CONFIG_VERSIONS_TABLE}${DROP_CONVERSATION_KEY_COLUMN}${DROP_UPSTREAM_KIND_COLUMN}ALTER TABLE api_keys DROP COLUMN disabled_by; ALTER TABLE accounts DROP COLUMN key_limit_ceiling; DROP TABLE console_tokens; DROP TABLE usage; DROP TABLE balance_events; DROP TRIGGER response_bytes_on_insert; DROP TRIGGER response_bytes_on_delete; DROP TABLE response_bytes; PRAGMA user_version = 3;`);
    database.close();

    const upgraded = track(open(path));
    const latest = storedResponse(account.id, 'resp_latest');
    // Room for two of the three: only a total that counts the two saved before the upgrade evicts one.
    const cap = { maxBytesPerAccount: storedResponseBytes(newer) + storedResponseBytes(latest) };
    await upgraded.saveResponse(latest, cap);
    expect(await upgraded.getResponse(account.id, 'resp_older', T0)).toBeUndefined();
    expect(await upgraded.getResponse(account.id, 'resp_newer', T0)).toEqual(newer);
    expect(await upgraded.getResponse(account.id, 'resp_latest', T0)).toEqual(latest);
  });
});
