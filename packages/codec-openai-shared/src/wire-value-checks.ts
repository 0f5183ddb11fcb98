/**
 * What the zod schemas' nullish fields take, as plain predicates for the codecs' field-by-field
 * checks of common bodies. zod refuses infinite numbers, and its integers are safe integers.
 */
export const isNullishString = (value: unknown): value is string | null | undefined =>
  value == null || typeof value === 'string';

export const isNullishBoolean = (value: unknown): value is boolean | null | undefined =>
  value == null || typeof value === 'boolean';

export const isNullishNumber = (value: unknown): value is number | null | undefined =>
  value == null || Number.isFinite(value);

/** What `z.number().min(minimum).max(maximum).nullish()` takes. */
export function isNullishInRange(value: unknown, minimum: number, maximum: number): boolean {
  return value == null || (Number.isFinite(value) && (value as number) >= minimum && (value as number) <= maximum);
}

/** What `z.int().min(minimum).max(maximum).nullish()` takes. */
export function isNullishCount(value: unknown, minimum: number, maximum = Number.MAX_SAFE_INTEGER): boolean {
  return value == null || (Number.isSafeInteger(value) && (value as number) >= minimum && (value as number) <= maximum);
}

/** What `z.enum([...members]).nullish()` takes. */
export const isNullishMember = (value: unknown, members: ReadonlySet<string>): boolean =>
  value == null || (typeof value === 'string' && members.has(value));
