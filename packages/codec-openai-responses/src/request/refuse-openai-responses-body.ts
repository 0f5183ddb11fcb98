import { GatewayError, unknownParameter, unsupportedParameter, type JSONObject } from '@switchyard/core';
import { KNOWN_REQUEST_FIELDS } from './openai-responses-request-schema';

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
  const unknown = Object.keys(body).find(field => !KNOWN_REQUEST_FIELDS.has(field));
  if (unknown !== undefined) throw unknownParameter(unknown);
}

/** Why each feature that needs state or services the gateway does not have is refused. */
const SERVER_SIDE_FEATURES: ReadonlyArray<[field: string, reason: string]> = [
  // The gateway's engine replaces it with the stored items before decoding; the codec alone cannot.
  ['previous_response_id', 'a stored response is resolved by the gateway before the body is decoded; send it to a gateway with a response store, or send the whole conversation in `input`'],
  ['conversation', 'conversation objects are not supported: continue with `previous_response_id`, or send the whole conversation in `input`'],
  ['prompt', 'stored prompt templates are not supported: send `instructions` and `input` instead'],
];

/** Features that need state or services the gateway does not have → `UNSUPPORTED_PARAMETER`. */
export function refuseServerSideFeatures(body: JSONObject): void {
  for (const [field, reason] of SERVER_SIDE_FEATURES) {
    if (body[field] !== undefined && body[field] !== null) throw unsupportedParameter(field, reason);
  }
  if (body.background === true) {
    throw unsupportedParameter('background', 'background runs are not supported: the gateway keeps no server-side state');
  }
}
