import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { createSQLiteAccountStore } from '@signalbox/store-sqlite';
import pg from 'pg';
import { ignoreTeardownErrors, usePostgresTestDatabases } from './postgres-test-databases';

const SERVER_SECRET = 'audit-append-only-secret';
const OLD = Date.UTC(2020, 0, 1);
const entry = (time: number) => ({ time, actor: 'cli', entityType: 'account', entityId: 'acct_x', action: 'update' });

/**
 * The audit log's table refuses, in the database itself, what would rewrite history: any UPDATE,
 * and a DELETE of an entry younger than a day (retention is at least a day, so it never needs one).
 */
describe('the audit log table is append-only in the database itself', () => {
  const directory = mkdtempSync(join(tmpdir(), 'signalbox-audit-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('SQLite: refuses an update and a delete of a recent entry, and lets retention delete an old one', async () => {
    const path = join(directory, 'audit.sqlite');
    const store = createSQLiteAccountStore({ path, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0 });
    await store.appendAudit(entry(Date.now()));
    await store.appendAudit(entry(OLD));
    const database = new DatabaseSync(path);
    try {
      expect(() => database.exec("UPDATE audit_log SET actor = 'someone else'")).toThrow(/append-only/);
      expect(() => database.exec('DELETE FROM audit_log')).toThrow(/at least a day/);
      expect(await store.deleteAuditBefore(Date.now() - 86_400_000)).toBe(1);
      expect((await store.listAudit({}, { limit: 10 })).entries.map(row => row.actor)).toEqual(['cli']);
    } finally {
      database.close();
      await store.close();
    }
  });

  describe('PostgreSQL', () => {
    const databases = usePostgresTestDatabases();

    it('refuses an update, a truncate and a delete of a recent entry, and lets retention delete an old one', async () => {
      const connectionString = await databases.createDatabase();
      const store = await createPostgresAccountStore({ connectionString, serverSecret: SERVER_SECRET, holdSweepIntervalMs: 0 });
      const pool = ignoreTeardownErrors(new pg.Pool({ connectionString, max: 1 }));
      try {
        await store.appendAudit(entry(Date.now()));
        await store.appendAudit(entry(OLD));
        await expect(pool.query("UPDATE audit_log SET actor = 'someone else'")).rejects.toThrow(/append-only/);
        await expect(pool.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
        await expect(pool.query('DELETE FROM audit_log')).rejects.toThrow(/at least a day/);
        expect(await store.deleteAuditBefore(Date.now() - 86_400_000)).toBe(1);
        expect((await store.listAudit({}, { limit: 10 })).entries).toHaveLength(1);
      } finally {
        await pool.end();
        await store.close();
      }
    });
  });
});
