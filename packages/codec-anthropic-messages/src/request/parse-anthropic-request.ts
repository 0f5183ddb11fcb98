import {
  createValidationError,
  findForeignField,
  GatewayError,
  isJSONObject,
  refuseForeignFields,
  unsupportedParameter,
  type DecodeOptions,
  type JSONObject,
  quoteClientName,
} from '@signalbox/core';
import { ANTHROPIC_REQUEST_FIELDS, anthropicRequestSchema, type AnthropicRequest } from '../schema/anthropic-request-schema';
import { readCommonAnthropicRequest } from './read-common-anthropic-request';

/**
 * Validates an untrusted client body against the Messages request schema. Order matters: a body
 * written for another endpoint the gateway serves gets a pointer to it before any single field is
 * named. Fields the schema does not know are not checked here: the decoder keeps them as sent.
 */
export function parseAnthropicRequest(body: unknown, options: DecodeOptions = {}): AnthropicRequest {
  if (!isJSONObject(body)) {
    throw new GatewayError({
      code: 'INVALID_REQUEST',
      message: 'Invalid request: the body must be a JSON object.',
    });
  }
  refuseForeignShapedBody(body, options);
  // Refused as Anthropic refuses them ("Extra inputs are not permitted"): each stands for something
  // Messages spells differently, so forwarding or dropping it would lose what the client meant.
  refuseForeignFields(body, options, ANTHROPIC_REQUEST_FIELDS);
  refuseServerTools(body.tools);
  const common = readCommonAnthropicRequest(body);
  if (common !== undefined) return common;
  const result = anthropicRequestSchema.safeParse(body, { error: requiredFieldError });
  if (!result.success) throw createValidationError(result.error.issues);
  return result.data;
}

/** A body without `messages` but with another endpoint's fields (`input`) was written for that endpoint. */
function refuseForeignShapedBody(body: JSONObject, options: DecodeOptions): void {
  if (body.messages !== undefined) return;
  const foreign = findForeignField(body, options, ANTHROPIC_REQUEST_FIELDS);
  if (foreign === undefined) return;
  throw new GatewayError({
    code: 'INVALID_REQUEST',
    param: foreign.field,
    message:
      `This endpoint (${foreign.endpoint}) takes an Anthropic Messages body with 'messages' and 'max_tokens'. ` +
      `Bodies with '${foreign.field}' go to ${foreign.endpoints}.`,
  });
}

// Server tools carry a versioned `type` (`web_search_20250305`, `bash_20250124`…); client tools have none or 'custom'.
function refuseServerTools(tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((tool: unknown, index) => {
    if (!isJSONObject(tool) || typeof tool.type !== 'string' || tool.type === 'custom') return;
    throw unsupportedParameter(
      `tools.${index}.type`,
      `server tool ${quoteClientName(tool.type, '(not a type name)')} is not supported by this gateway; only client tools (name, input_schema) are`,
    );
  });
}

function requiredFieldError(issue: { code: string; input?: unknown }): string | undefined {
  return issue.code === 'invalid_type' && issue.input === undefined ? 'Field required' : undefined;
}
