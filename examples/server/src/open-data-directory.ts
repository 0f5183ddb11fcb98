import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deriveConversationSecret } from './derive-conversation-secret';
import { writePrivateFile } from './write-private-file';

/** The server's private files: the SQLite database, the key-hashing secret, the console token digest. */
export type DataDirectory = {
  path: string;
  databasePath: string;
  /** HMAC secret for API key digests; from `SIGNALBOX_SERVER_SECRET` or created once in the folder. */
  serverSecret: string;
  /**
   * The secret compaction items are sealed under, derived from the server secret (HKDF-SHA256), so
   * compaction items survive restarts and never share a key with the key digests.
   */
  conversationSecret: string;
  /** The SHA-256 digest of the console token (see `admin-token-file.ts`). */
  adminTokenFile: string;
};

export type OpenDataDirectoryOptions = {
  /** Told when an existing folder's mode was wider than 0700 and was tightened. Default: a line on stderr. */
  warn?: (message: string) => void;
};

/** Owner only: the folder holds the database, the key-hashing secret and the console token digest. */
const PRIVATE_DIRECTORY_MODE = 0o700;

/**
 * Opens (creating on first use, mode 0700) the data folder. An existing folder that others may
 * read or enter (e.g. 0755) is tightened to 0700, with a warning. Secrets stay in files readable
 * only by the owner. The console token is handled apart (`ensureAdminTokenFile`), so a management
 * command run before the first start never creates a token nobody was shown.
 */
export function openDataDirectory(
  path: string,
  environment: NodeJS.ProcessEnv = process.env,
  options: OpenDataDirectoryOptions = {},
): DataDirectory {
  const directory = resolve(path);
  mkdirSync(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  const warn = options.warn ?? ((message: string) => process.stderr.write(`warning: ${message}\n`));
  restrictDirectory(directory, warn);
  const serverSecret = environment.SIGNALBOX_SERVER_SECRET ?? readOrCreate(join(directory, 'server-secret'), () => randomBytes(32).toString('hex'));
  return {
    path: directory,
    databasePath: join(directory, 'signalbox.sqlite'),
    serverSecret,
    conversationSecret: deriveConversationSecret(serverSecret),
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

/** Sets the folder to 0700 when group or others have any access to it, and says so. */
function restrictDirectory(directory: string, warn: (message: string) => void): void {
  const mode = statSync(directory).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  chmodSync(directory, PRIVATE_DIRECTORY_MODE);
  warn(`the data folder ${directory} had mode ${mode.toString(8).padStart(4, '0')}; it is now 0700 (owner only)`);
}
