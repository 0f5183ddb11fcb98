import { GatewayError, type ValidationIssue } from './gateway-error';

/** An issue as schema libraries report it (zod's shape), without depending on one. */
export type SchemaIssue = { path: readonly PropertyKey[]; message: string };

/**
 * A 400 `INVALID_REQUEST` naming the first offending field by its dotted path
 * (`input.0.content: Invalid input`), with every issue listed in `issues`.
 */
export function createValidationError(schemaIssues: readonly SchemaIssue[], hint?: string): GatewayError {
  const issues: ValidationIssue[] = schemaIssues.map(issue => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  const first = issues[0];
  const where = first ? (first.path === '' ? first.message : `${first.path}: ${first.message}`) : 'invalid body';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? 's' : ''})` : '';
  return new GatewayError({
    code: 'INVALID_REQUEST',
    message: `Invalid request: ${where}${more}.${hint ? ` ${hint}` : ''}`,
    ...(first && first.path !== '' && { param: first.path }),
    issues,
  });
}
