import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { digestAdminToken, generateAdminToken } from '@switchyard/accounts';

/** The server's private files: the SQLite database, the key-hashing secret, the console token digest. */
export type DataDirectory = {
  path: string;
  databasePath: string;
  /** HMAC secret for API key digests; from `SWITCHYARD_SERVER_SECRET` or created once in the folder. */
  serverSecret: string;
  adminTokenDigests: string[];
  /** A console token created on this start (first start, or `rotateAdminToken`): show it once. */
  newAdminToken: string | undefined;
};

/**
 * Opens (creating on first use, mode 0700) the data folder. Secrets stay in files readable only by
 * the owner; the console token is kept only as a digest, so it can be shown once and never again.
 */
export function openDataDirectory(path: string, environment: NodeJS.ProcessEnv = process.env): DataDirectory {
  const directory = resolve(path);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const serverSecret = environment.SWITCHYARD_SERVER_SECRET ?? readOrCreate(join(directory, 'server-secret'), () => randomBytes(32).toString('hex'));
  const digestFile = join(directory, 'admin-token.sha256');
  let newAdminToken: string | undefined;
  const adminTokenDigests: string[] = [];
  if (environment.SWITCHYARD_ADMIN_TOKEN) adminTokenDigests.push(digestAdminToken(environment.SWITCHYARD_ADMIN_TOKEN));
  else if (existsSync(digestFile)) adminTokenDigests.push(readFileSync(digestFile, 'utf8').trim());
  else {
    newAdminToken = generateAdminToken();
    writePrivate(digestFile, digestAdminToken(newAdminToken));
    adminTokenDigests.push(digestAdminToken(newAdminToken));
  }
  return { path: directory, databasePath: join(directory, 'switchyard.sqlite'), serverSecret, adminTokenDigests, newAdminToken };
}

/** Replaces the console token; the new one is returned to be shown once. */
export function rotateAdminToken(directory: string): string {
  const token = generateAdminToken();
  writePrivate(join(resolve(directory), 'admin-token.sha256'), digestAdminToken(token));
  return token;
}

function readOrCreate(file: string, create: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = create();
  writePrivate(file, value);
  return value;
}

function writePrivate(file: string, content: string): void {
  writeFileSync(file, `${content}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
