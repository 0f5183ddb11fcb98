import { chmodSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Writes a secret file readable only by its owner (0600). The content goes to a temporary file that
 * is then renamed over the target, so a reader never sees a half-written file and a watcher sees a
 * new file (a new inode) even when two writes land within the file system's timestamp resolution.
 */
export function writePrivateFile(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${content}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}
