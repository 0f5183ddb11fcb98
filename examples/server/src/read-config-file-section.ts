import { describeUnknownKeys } from '@signalbox/engine';
import type { z } from 'zod';
import { ConfigFileError } from './start-up-error';

const unknownKeys = describeUnknownKeys();

/**
 * Validates the example server's own section `name` of the config file at `path` (absent:
 * `undefined`). A problem is a `ConfigFileError` naming the file and each path at fault
 * (`tracing.endpoint: must be …`, `storage.database: unknown field urll (did you mean url?)`),
 * each issue worded by `describe`.
 */
export function readConfigFileSection<Schema extends z.ZodType>(
  path: string,
  name: string,
  schema: Schema,
  section: unknown,
  describe: (issue: z.core.$ZodIssue) => string = describeIssue,
): z.output<Schema> | undefined {
  if (section === undefined) return undefined;
  const parsed = schema.safeParse(section, { error: unknownKeys });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(issue => `${[name, ...issue.path.map(String)].join('.')}: ${describe(issue)}`);
  throw new ConfigFileError(path, problems.join('; '), { cause: parsed.error });
}

/** zod's message (an unknown field with the known one it likely stands for), or for a value of the wrong type what was expected, without the value. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && ['object', 'string', 'number'].includes(issue.expected)) {
    return `must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}`;
  }
  return issue.message;
}
