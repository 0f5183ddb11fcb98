import type { Statements } from './prepare-statements';

type CandidateRow = { seq: number; bytes: number };

/**
 * Deletes the account's oldest responses while its total size exceeds `maxBytes`, never the one
 * at `keptSeq` (the one just saved, which may alone exceed the cap). Runs inside the caller's
 * transaction, so the total it reads is the one it enforces.
 */
export function evictOldestResponses(
  statements: Statements,
  accountId: string,
  keptSeq: number,
  maxBytes: number,
): void {
  let total = Number(statements.sumAccountBytes.get(accountId)?.['total'] ?? 0);
  if (!(total > maxBytes)) return;
  const evicted: number[] = [];
  for (const row of statements.selectEvictionCandidates.iterate(accountId, keptSeq)) {
    if (!(total > maxBytes)) break;
    const candidate = row as CandidateRow;
    evicted.push(candidate.seq);
    total -= candidate.bytes;
  }
  for (const seq of evicted) statements.deleteResponseBySeq.run(seq);
}
