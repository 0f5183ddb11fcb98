import { existsSync, readFileSync, statSync } from 'node:fs';
import { digestAdminToken, generateAdminToken } from '@signalbox/accounts';
import { writePrivateFile } from './write-private-file';

/**
 * Creates the console token on a data folder's first start. Only its digest is kept, so the token
 * returned here is shown once and never again; `undefined` when the folder has one already.
 */
export function ensureAdminTokenFile(file: string): string | undefined {
  if (existsSync(file)) return undefined;
  return rotateAdminToken(file);
}

/**
 * Replaces the console token and returns the new one (to be shown once). A server running on the
 * same folder picks the change up through `watchAdminTokenFile`, so the old token stops working
 * without a restart.
 */
export function rotateAdminToken(file: string): string {
  const token = generateAdminToken();
  writePrivateFile(file, digestAdminToken(token));
  return token;
}

export type WatchAdminTokenFileOptions = {
  /** The clock that paces the checks. Default `Date.now`. */
  now?: () => number;
  /** The file is looked at (one `stat`) at most this often. Default 1000 ms. */
  checkIntervalMs?: number;
};

const DIGEST = /^[0-9a-f]{64}$/;

/**
 * The console token digests currently in `file`, for an admin service that must see a rotation
 * while it runs. Each call costs nothing but a clock read, except at most once per
 * `checkIntervalMs`, when the file is `stat`ed and, only if it changed (inode, size or time), read
 * again. The same array comes back while nothing changed. A missing or malformed file opens nothing.
 */
export function watchAdminTokenFile(file: string, options: WatchAdminTokenFileOptions = {}): () => readonly string[] {
  const now = options.now ?? Date.now;
  const interval = options.checkIntervalMs ?? 1000;
  let checkedAt = -Infinity;
  let signature: string | undefined;
  let digests: readonly string[] = [];
  return () => {
    const time = now();
    if (time - checkedAt < interval) return digests;
    checkedAt = time;
    const stats = statSync(file, { throwIfNoEntry: false });
    const latest = stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : 'missing';
    if (latest !== signature) {
      const read = stats ? readDigests(file) : [];
      // A file that could not be read is read again at the next check, even if it looks the same.
      signature = read === undefined ? undefined : latest;
      digests = read ?? [];
    }
    return digests;
  };
}

function readDigests(file: string): readonly string[] | undefined {
  try {
    const digest = readFileSync(file, 'utf8').trim();
    return DIGEST.test(digest) ? [digest] : [];
  } catch {
    return undefined;
  }
}
