import type { ValidationIssue } from '@signalbox/core';
import type { ConfigError } from '../config/config-error';

/** A `ConfigError`'s problems (`routes.0.model: duplicate model ID 'x'`) as issues by path, for an API's 400. */
export function configErrorIssues(error: ConfigError): ValidationIssue[] {
  return error.problems.map(problem => {
    const colon = problem.indexOf(': ');
    return colon === -1 ? { path: '(root)', message: problem } : { path: problem.slice(0, colon), message: problem.slice(colon + 2) };
  });
}
