import type { SqlSession } from './sql-session';

/**
 * Deletes the account's oldest responses (by `created_at`, then save order) while its total size
 * exceeds `maxBytes`, never the one at `keptSeq` (the one just saved, which may alone exceed the
 * cap). Runs inside the caller's transaction, under the account's lock, so the total it reads is
 * the one it enforces; the total and the candidates come from the `(account_id, created_at, seq)`
 * index, which carries `bytes`.
 */
export async function evictOldestResponses(sql: SqlSession, accountId: string, keptSeq: number, maxBytes: number): Promise<void> {
  const total = await sql.row('SELECT COALESCE(SUM(bytes), 0)::bigint AS total FROM responses WHERE account_id = $1', [accountId]);
  let remaining = Number(total?.['total'] ?? 0);
  if (!(remaining > maxBytes)) return;
  const candidates = await sql.rows(
    'SELECT seq, bytes FROM responses WHERE account_id = $1 AND seq <> $2 ORDER BY created_at, seq',
    [accountId, keptSeq],
  );
  const evicted: number[] = [];
  for (const candidate of candidates) {
    if (!(remaining > maxBytes)) break;
    evicted.push(Number(candidate['seq']));
    remaining -= Number(candidate['bytes']);
  }
  await sql.rows('DELETE FROM responses WHERE seq = ANY($1::bigint[])', [evicted]);
}
