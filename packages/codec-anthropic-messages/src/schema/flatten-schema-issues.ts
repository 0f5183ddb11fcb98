import type { SchemaIssue } from '@switchyard/core';
import type { z } from 'zod';

/**
 * zod reports a failed `string | block[]` union as one vague issue at the union's path. When exactly
 * one branch failed for a deeper reason, report that branch's issues instead, so the client learns
 * which block and field are wrong (`messages.0.content.1.source.media_type`).
 */
export function flattenSchemaIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): SchemaIssue[] {
  const flattened: SchemaIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
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

function isRootTypeMismatch(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'invalid_type' && issue.path.length === 0;
}
