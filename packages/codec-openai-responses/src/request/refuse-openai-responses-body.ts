import { GatewayError, type JSONObject } from '@switchyard/core';
import { KNOWN_REQUEST_FIELDS } from './openai-responses-request-schema';
import { unsupportedParameter } from './unsupported-parameter';

const MESSAGES_FIELDS = ['messages', 'system', 'max_tokens'] as const;

/**
 * A Messages-style body (`messages` / `system` / `max_tokens`, no `input`) sent here by mistake gets
 * a 400 that says where it belongs, instead of a bare `Unknown parameter: 'messages'.`.
 */
export function refuseMessagesShapedBody(body: JSONObject): void {
  if (body.input !== undefined) return;
  const field = MESSAGES_FIELDS.find(name => body[name] !== undefined);
  if (field === undefined) return;
  throw new GatewayError({
    code: 'INVALID_REQUEST',
    message:
      `This endpoint takes \`input\` (and \`instructions\`), not \`${field}\`: the body looks like a Messages request. ` +
      'Send Messages-style bodies (`messages`, `system`, `max_tokens`) to POST /v1/messages.',
    param: field,
  });
}

/** OpenAI's own rule: a field it does not know is a 400 naming it, never silently ignored. */
export function refuseUnknownFields(body: JSONObject): void {
  for (const field of Object.keys(body)) {
    if (!KNOWN_REQUEST_FIELDS.has(field)) {
      throw new GatewayError({
        code: 'INVALID_REQUEST',
        message: `Unknown parameter: '${field}'.`,
        param: field,
      });
    }
  }
}

const SERVER_SIDE_FEATURES: ReadonlyArray<[field: string, message: string]> = [
  [
    'previous_response_id',
    '`previous_response_id` is not supported: the gateway keeps no server-side state. Send the whole conversation in `input`.',
  ],
  [
    'conversation',
    '`conversation` is not supported: the gateway keeps no server-side state. Send the whole conversation in `input`.',
  ],
  [
    'prompt',
    'Stored prompt templates (`prompt`) are not supported: send `instructions` and `input` instead.',
  ],
  ['context_management', '`context_management` is not supported by this gateway.'],
  ['moderation', '`moderation` is not supported by this gateway.'],
  ['image', '`image` is not supported by this gateway.'],
  ['access_programs', '`access_programs` is not supported by this gateway.'],
];

/** Features that need state or services the gateway does not have → `UNSUPPORTED_PARAMETER`. */
export function refuseServerSideFeatures(body: JSONObject): void {
  for (const [field, message] of SERVER_SIDE_FEATURES) {
    if (body[field] !== undefined && body[field] !== null) throw unsupportedParameter([field], message);
  }
  if (body.background === true) {
    throw unsupportedParameter(
      ['background'],
      'Background runs (`background: true`) are not supported: the gateway keeps no server-side state.',
    );
  }
}
