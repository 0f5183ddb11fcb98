import { GatewayError, refuseForeignFields, unsupportedParameter, type ForeignField, type JSONObject } from '@signalbox/core';

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

const MESSAGES = 'POST /v1/messages';
const CHAT = 'POST /v1/chat/completions';

/**
 * Fields of the sibling endpoints, refused here as OpenAI refuses them: each stands for something
 * the Responses API spells differently, so forwarding or dropping it would lose what the client
 * meant. Any other field the gateway does not know is accepted (see `decodeOpenAIResponsesRequest`).
 */
const FOREIGN_FIELDS: Readonly<Record<string, ForeignField>> = {
  messages: { endpoints: `${MESSAGES} and ${CHAT}`, instead: 'the conversation goes in `input`' },
  system: { endpoints: MESSAGES, instead: 'system text goes in `instructions`' },
  max_tokens: { endpoints: `${MESSAGES} and ${CHAT}`, instead: 'the output limit is `max_output_tokens`' },
  max_completion_tokens: { endpoints: CHAT, instead: 'the output limit is `max_output_tokens`' },
  stop: { endpoints: CHAT, instead: 'the Responses API has no stop parameter' },
  stop_sequences: { endpoints: MESSAGES, instead: 'the Responses API has no stop parameter' },
  response_format: { endpoints: CHAT, instead: 'structured output is `text.format`' },
  reasoning_effort: { endpoints: CHAT, instead: 'the effort is `reasoning.effort`' },
  thinking: { endpoints: MESSAGES, instead: 'reasoning is set with `reasoning`' },
};

/** A field of Messages or Chat Completions, sent here by mistake → 400 naming it and where it belongs. */
export function refuseSiblingProtocolFields(body: JSONObject): void {
  refuseForeignFields(body, 'POST /v1/responses', FOREIGN_FIELDS);
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
