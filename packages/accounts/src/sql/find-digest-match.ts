import { digestsEqual } from '../keys/api-key-secrets';

/**
 * The row among `candidates` (the rows sharing a secret's visible prefix) whose `digest` column
 * equals `digest`, or `undefined`. Every candidate is compared in constant time, match or not, so
 * the time taken does not tell which one matched.
 */
export function findDigestMatch<Row extends Record<string, unknown>>(candidates: readonly Row[], digest: string): Row | undefined {
  let found: Row | undefined;
  for (const candidate of candidates) {
    if (digestsEqual(String(candidate['digest']), digest) && !found) found = candidate;
  }
  return found;
}
