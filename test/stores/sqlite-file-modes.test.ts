import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createSQLiteAccountStore } from '@signalbox/store-sqlite';

const directory = mkdtempSync(join(tmpdir(), 'signalbox-store-modes-'));
let fileCount = 0;
const newFile = () => join(directory, `store-${++fileCount}.sqlite`);
const open = (path: string) => createSQLiteAccountStore({ path, serverSecret: `modes-${process.pid}` });
const modeOf = (file: string) => statSync(file).mode & 0o777;
const databaseFiles = (path: string) => [path, `${path}-wal`, `${path}-shm`];

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('SQLite database files are readable by their owner only', () => {
  it('creates the database, its -wal and its -shm with mode 0600, whatever the umask allows', async () => {
    const path = newFile();
    const previousUmask = process.umask(0o022);
    try {
      const store = open(path);
      await store.createAccount({ name: 'modes' });
      expect(databaseFiles(path).map(file => [file, existsSync(file) && modeOf(file)])).toEqual(
        databaseFiles(path).map(file => [file, 0o600]),
      );
      await store.close();
    } finally {
      process.umask(previousUmask);
    }
  });

  it('tightens a database, -wal and -shm left with mode 0644 to 0600 when it opens them', async () => {
    const path = newFile();
    const earlier = new DatabaseSync(path);
    earlier.exec('PRAGMA journal_mode = WAL');
    earlier.exec('CREATE TABLE kept (id INTEGER)');
    for (const file of databaseFiles(path)) chmodSync(file, 0o644);
    const store = open(path);
    await store.createAccount({ name: 'tightened' });
    expect(databaseFiles(path).map(file => [file, modeOf(file)])).toEqual(databaseFiles(path).map(file => [file, 0o600]));
    await store.close();
    earlier.close();
  });

  it('opens an existing empty file with mode 0640 as a new database and sets it to 0600', async () => {
    const path = newFile();
    writeFileSync(path, '');
    chmodSync(path, 0o640);
    const store = open(path);
    expect(modeOf(path)).toBe(0o600);
    expect(await store.listAccounts()).toEqual([]);
    await store.close();
  });
});
