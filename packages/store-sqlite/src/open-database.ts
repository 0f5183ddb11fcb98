import { DatabaseSync } from 'node:sqlite';
import { createPrivateDatabaseFile, isDatabaseFile, restrictDatabaseFiles } from './restrict-database-files';

/**
 * Opens the file with the connection settings the store relies on: `busy_timeout` first (so the
 * rest waits for other processes instead of failing), foreign keys on, WAL so readers never
 * block the writer, and `synchronous = NORMAL` (WAL's durable-enough setting). WAL is a property of the file; on `:memory:` SQLite keeps its own journal mode.
 * A database on disk and its `-wal` and `-shm` files are readable by their owner only (0600).
 */
export function openDatabase(path: string, busyTimeoutMs: number): DatabaseSync {
  const onDisk = isDatabaseFile(path);
  if (onDisk) createPrivateDatabaseFile(path);
  const database = new DatabaseSync(path);
  try {
    database.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    database.exec('PRAGMA foreign_keys = ON');
    database.exec('PRAGMA journal_mode = WAL');
    // In WAL mode NORMAL keeps the file consistent on any crash and loses at most the last commits on
    // power loss, without an fsync per transaction (measured: FULL made every request wait on the disk).
    database.exec('PRAGMA synchronous = NORMAL');
    if (onDisk) restrictDatabaseFiles(path);
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}
