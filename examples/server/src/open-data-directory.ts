import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writePrivateFile } from './write-private-file';

/** The server's private files: the SQLite database, the key-hashing secret, the console token digest. */
export type DataDirectory = {
  path: string;
  databasePath: string;
  /** HMAC secret for API key digests; from `SWITCHYARD_SERVER_SECRET` or created once in the folder. */
  serverSecret: string;
  /** The SHA-256 digest of the console token (see `admin-token-file.ts`). */
  adminTokenFile: string;
};

/**
 * Opens (creating on first use, mode 0700) the data folder. Secrets stay in files readable only by
 * the owner. The console token is handled apart (`ensureAdminTokenFile`), so a management command
 * run before the first start never creates a token nobody was shown.
 */
export function openDataDirectory(path: string, environment: NodeJS.ProcessEnv = process.env): DataDirectory {
  const directory = resolve(path);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const serverSecret = environment.SWITCHYARD_SERVER_SECRET ?? readOrCreate(join(directory, 'server-secret'), () => randomBytes(32).toString('hex'));
  return {
    path: directory,
    databasePath: join(directory, 'switchyard.sqlite'),
    serverSecret,
    adminTokenFile: adminTokenFileIn(directory),
  };
}

/** Where a data folder keeps its console token digest. */
export function adminTokenFileIn(directory: string): string {
  return join(resolve(directory), 'admin-token.sha256');
}

function readOrCreate(file: string, create: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = create();
  writePrivateFile(file, value);
  return value;
}
