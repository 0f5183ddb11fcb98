/**
 * What the codecs' zod schemas take for a scalar field, as plain predicates for their field-by-field
 * checks of common bodies, answers and events: `isX` a required field, `isOptionalX` one that may be
 * absent (`.optional()`), `isNullishX` one that may also be `null` (`.nullish()`). zod refuses
 * infinite numbers, and its integers are safe integers.
 */

/** What `z.number().min(minimum).max(maximum)` takes. */
export function isInRange(value: unknown, minimum = -Infinity, maximum = Infinity): value is number {
  return Number.isFinite(value) && (value as number) >= minimum && (value as number) <= maximum;
}

/** What `z.int().min(minimum).max(maximum)` takes. */
export function isCount(value: unknown, minimum: number, maximum = Number.MAX_SAFE_INTEGER): value is number {
  return Number.isSafeInteger(value) && (value as number) >= minimum && (value as number) <= maximum;
}

export const isOptionalString = (value: unknown): value is string | undefined => value === undefined || typeof value === 'string';

export const isOptionalBoolean = (value: unknown): value is boolean | undefined => value === undefined || typeof value === 'boolean';

export const isOptionalNumber = (value: unknown): value is number | undefined => value === undefined || Number.isFinite(value);

export const isOptionalInRange = (value: unknown, minimum: number, maximum = Infinity): boolean =>
  value === undefined || isInRange(value, minimum, maximum);

export const isOptionalCount = (value: unknown, minimum: number, maximum?: number): boolean =>
  value === undefined || isCount(value, minimum, maximum);

export const isNullishString = (value: unknown): value is string | null | undefined => value == null || typeof value === 'string';

export const isNullishBoolean = (value: unknown): value is boolean | null | undefined => value == null || typeof value === 'boolean';

export const isNullishNumber = (value: unknown): value is number | null | undefined => value == null || Number.isFinite(value);

export const isNullishInRange = (value: unknown, minimum: number, maximum: number): boolean => value == null || isInRange(value, minimum, maximum);

export const isNullishCount = (value: unknown, minimum: number, maximum?: number): boolean => value == null || isCount(value, minimum, maximum);

/** What `z.enum([...members]).nullish()` takes. */
export const isNullishMember = (value: unknown, members: ReadonlySet<string>): boolean =>
  value == null || (typeof value === 'string' && members.has(value));
