import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';

/** Owner read and write only: the database holds key digests, balances and account names. */
const PRIVATE_FILE_MODE = 0o600;

/** The files SQLite keeps for a database in WAL mode: the database, its write-ahead log and its shared-memory index. */
function databaseFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`];
}

/**
 * Whether `path` names a file on disk (not `:memory:`, not a temporary database (`''`), not a
 * `file:` URI whose options SQLite reads itself).
 */
export function isDatabaseFile(path: string): boolean {
  return path !== '' && path !== ':memory:' && !path.startsWith('file:');
}

/**
 * Creates a missing database file empty with mode 0600 before SQLite opens it. SQLite gives the
 * `-wal`, `-journal` and `-shm` files it creates later the database file's own permissions, so
 * they are private from birth too (https://www.sqlite.org/tempfiles.html).
 */
export function createPrivateDatabaseFile(path: string): void {
  if (existsSync(path)) return;
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
}

/**
 * Sets mode 0600 on the database and on its `-wal` and `-shm` files where they exist: files left
 * world-readable by an older version (or copied in with wider modes) are tightened on every open.
 */
export function restrictDatabaseFiles(path: string): void {
  for (const file of databaseFiles(path)) {
    if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
  }
}
