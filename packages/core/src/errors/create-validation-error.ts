import { GatewayError, type ValidationIssue } from './gateway-error';
import { boundClientText } from '../redact/quote-client-value';

/**
 * An issue as schema libraries report it (zod's shape), without depending on one. A failed union
 * (`code: 'invalid_union'`) carries each branch's own issues in `errors`.
 */
export type SchemaIssue = {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  errors?: readonly (readonly SchemaIssue[])[];
};

/**
 * A failed `string | block[]` union is one vague issue at the union's path. When exactly one branch
 * failed for a deeper reason than "wrong type at the root", that branch's issues say which block
 * and field are wrong (`messages.0.content.1.source.media_type`), so they are reported instead.
 */
export function flattenSchemaIssues(issues: readonly SchemaIssue[], prefix: readonly PropertyKey[] = []): SchemaIssue[] {
  const flattened: SchemaIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors && issue.errors.length > 0) {
      const informative = issue.errors.filter(branch => !branch.every(isRootTypeMismatch));
      if (informative.length === 1) {
        flattened.push(...flattenSchemaIssues(informative[0]!, path));
        continue;
      }
    }
    flattened.push({ path, message: issue.message });
  }
  return flattened;
}

function isRootTypeMismatch(issue: SchemaIssue): boolean {
  return issue.code === 'invalid_type' && issue.path.length === 0;
}

/** Room for a rule and the client value it quotes, each bounded. */
const ISSUE_MESSAGE_MAX_CHARS = 500;

/**
 * A 400 `INVALID_REQUEST` naming the first offending field by its dotted path
 * (`input.0.content: Invalid input`), with every issue listed in `issues`. Paths hold the client's
 * keys and messages may quote them (an unrecognized key), so both are cut like any client value.
 */
export function createValidationError(schemaIssues: readonly SchemaIssue[], hint?: string): GatewayError {
  const issues: ValidationIssue[] = flattenSchemaIssues(schemaIssues).map(issue => ({
    path: boundClientText(issue.path.map(String).join('.')),
    message: boundClientText(issue.message, ISSUE_MESSAGE_MAX_CHARS),
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
