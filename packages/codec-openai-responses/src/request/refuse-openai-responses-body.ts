import {
  findForeignField,
  GatewayError,
  unsupportedParameter,
  type DecodeOptions,
  type JSONObject,
} from '@signalbox/core';
import { KNOWN_REQUEST_FIELDS } from './openai-responses-request-schema';

/**
 * A body without `input` but with another endpoint's fields (Messages' `messages`, `system`,
 * `max_tokens`) sent here by mistake gets a 400 that says where it belongs, instead of a bare
 * complaint about one field.
 */
export function refuseForeignShapedBody(body: JSONObject, options: DecodeOptions): void {
  if (body.input !== undefined) return;
  const foreign = findForeignField(body, options, KNOWN_REQUEST_FIELDS);
  if (foreign === undefined) return;
  throw new GatewayError({
    code: 'INVALID_REQUEST',
    message:
      `This endpoint takes \`input\` (and \`instructions\`), not \`${foreign.field}\`: the body looks like one for ${foreign.endpoints}. ` +
      `Send it there, or rewrite it for this one.`,
    param: foreign.field,
  });
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
