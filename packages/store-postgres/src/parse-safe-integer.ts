/**
 * Reads a BIGINT as a number, refusing one above `Number.MAX_SAFE_INTEGER` (or below its negative):
 * money is integer micro-units, and a balance a double cannot hold exactly must fail loudly rather
 * than be rounded. `pg` hands BIGINT over as text for this reason (https://node-postgres.com/features/types).
 */
export function parseSafeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`${text} is beyond the integers a number holds exactly.`);
  return value;
}
