import { createValidationError } from '@signalbox/core';
import type { z } from 'zod';

/**
 * Validates one piece of the client body with its schema; on failure throws the 400 naming the
 * full path (`input.2.content.0.text`), so nested checks report where they sit in the body.
 */
export function parseAt<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  path: readonly PropertyKey[],
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw createValidationError(
    result.error.issues.map(issue => ({ path: [...path, ...issue.path], message: issue.message })),
  );
}

