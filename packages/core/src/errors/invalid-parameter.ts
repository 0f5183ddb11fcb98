import { createValidationError } from './create-validation-error';
import type { FieldPath } from './field-path';
import type { GatewayError } from './gateway-error';

/**
 * A 400 `INVALID_REQUEST` for one field whose value breaks a rule the schema cannot express (a
 * thinking budget not below `max_tokens`, tool-call arguments that are not JSON). Worded like every
 * schema refusal, so a client sees one format whichever check caught the field:
 * `Invalid request: thinking.budget_tokens: must be less than max_tokens.`
 *
 * @param reason the rule that was broken, without a final period.
 */
export function invalidParameter(path: FieldPath, reason: string): GatewayError {
  return createValidationError([{ path: typeof path === 'string' ? [path] : path, message: reason }]);
}
