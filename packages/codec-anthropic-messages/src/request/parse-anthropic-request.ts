import {
  createValidationError,
  GatewayError,
  isJSONObject,
  refuseForeignFields,
  unsupportedParameter,
  type ForeignField,
  type JSONObject,
  quoteClientValue,
} from '@signalbox/core';
import { anthropicRequestSchema, type AnthropicRequest } from '../schema/anthropic-request-schema';

/**
 * Validates an untrusted client body against the Messages request schema. Order matters: a body in
 * the Responses shape gets a pointer to the right endpoint before any single field is named. Fields
 * the schema does not know are not checked here: the decoder keeps them as sent.
 */
export function parseAnthropicRequest(body: unknown): AnthropicRequest {
  if (!isJSONObject(body)) {
    throw new GatewayError({
      code: 'INVALID_REQUEST',
      message: 'Invalid request: the body must be a JSON object.',
    });
  }
  refuseResponsesShapedBody(body);
  refuseForeignFields(body, 'POST /v1/messages', FOREIGN_FIELDS);
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

const RESPONSES = 'POST /v1/responses';
const CHAT = 'POST /v1/chat/completions';

/**
 * Fields of the sibling endpoints, refused here as Anthropic refuses them ("Extra inputs are not
 * permitted"): each stands for something Messages spells differently, so forwarding or dropping it
 * would lose what the client meant. Any other field the gateway does not know is accepted.
 */
const FOREIGN_FIELDS: Readonly<Record<string, ForeignField>> = {
  input: { endpoints: RESPONSES, instead: 'the conversation goes in `messages`' },
  instructions: { endpoints: RESPONSES, instead: 'system text goes in `system`' },
  max_output_tokens: { endpoints: RESPONSES, instead: 'the output limit is `max_tokens`' },
  max_completion_tokens: { endpoints: CHAT, instead: 'the output limit is `max_tokens`' },
  previous_response_id: { endpoints: RESPONSES, instead: 'send the whole conversation in `messages`' },
  reasoning: { endpoints: RESPONSES, instead: 'reasoning is set with `thinking` and `output_config.effort`' },
  text: { endpoints: RESPONSES, instead: 'structured output is `output_config.format`' },
  response_format: { endpoints: CHAT, instead: 'structured output is `output_config.format`' },
  reasoning_effort: { endpoints: CHAT, instead: 'the effort is `output_config.effort`' },
  stop: { endpoints: CHAT, instead: 'stop sequences go in `stop_sequences`' },
  n: { endpoints: CHAT, instead: 'Messages returns one answer per request' },
};

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
