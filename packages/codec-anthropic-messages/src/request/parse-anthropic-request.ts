import {
  createValidationError,
  GatewayError,
  isJSONObject,
  unknownParameter,
  unsupportedParameter,
  type JSONObject,
  quoteClientValue,
} from '@switchyard/core';
import {
  ANTHROPIC_REQUEST_FIELDS,
  anthropicRequestSchema,
  type AnthropicRequest,
} from '../schema/anthropic-request-schema';

/**
 * Validates an untrusted client body against the Messages request schema. Order matters: a body in
 * the Responses shape gets a pointer to the right endpoint before anything is called unknown.
 */
export function parseAnthropicRequest(body: unknown): AnthropicRequest {
  if (!isJSONObject(body)) {
    throw new GatewayError({
      code: 'INVALID_REQUEST',
      message: 'Invalid request: the body must be a JSON object.',
    });
  }
  refuseResponsesShapedBody(body);
  refuseUnknownFields(body);
  refuseServerTools(body.tools);
  const result = anthropicRequestSchema.safeParse(body, { error: requiredFieldError });
  if (!result.success) throw createValidationError(result.error.issues);
  return result.data;
}

function refuseResponsesShapedBody(body: JSONObject): void {
  if (body.input === undefined || body.messages !== undefined) return;
  throw new GatewayError({
    code: 'INVALID_REQUEST',
    param: 'input',
    message:
      "This endpoint (POST /v1/messages) takes an Anthropic Messages body with 'messages' and 'max_tokens'. " +
      "Responses-style bodies (with 'input') go to POST /v1/responses.",
  });
}

// Anthropic validates strictly: an unknown field is a 400 upstream too, so refuse it here.
function refuseUnknownFields(body: JSONObject): void {
  const unknown = Object.keys(body).find(field => !ANTHROPIC_REQUEST_FIELDS.has(field));
  if (unknown !== undefined) throw unknownParameter(unknown);
}

// Server tools carry a versioned `type` (`web_search_20250305`, `bash_20250124`…); client tools have none or 'custom'.
function refuseServerTools(tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((tool: unknown, index) => {
    if (!isJSONObject(tool) || typeof tool.type !== 'string' || tool.type === 'custom') return;
    throw unsupportedParameter(
      `tools.${index}.type`,
      `server tool ${quoteClientValue(tool.type)} is not supported by this gateway; only client tools (name, input_schema) are`,
    );
  });
}

function requiredFieldError(issue: { code: string; input?: unknown }): string | undefined {
  return issue.code === 'invalid_type' && issue.input === undefined ? 'Field required' : undefined;
}
