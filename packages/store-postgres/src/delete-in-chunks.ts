import type { SqlSession } from './sql-session';

/**
 * A retention delete: runs `chunk` (which deletes at most `size` rows older than its `$1`) until it
 * comes back short, each run its own statement, so other writers are never blocked for long.
 * Resolves with how many rows went.
 */
export async function deleteInChunks(sql: SqlSession, chunk: string, before: number, size: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const changes = await sql.count(chunk, [before]);
    removed += changes;
    if (changes < size) return removed;
  }
}
