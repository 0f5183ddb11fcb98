import {
  GatewayError,
  isJSONObject,
  unknownParameter,
  type DecodeOptions,
  type GenerationRequest,
} from '@signalbox/core';
import { decodeAnthropicRequest } from '../request/decode-anthropic-request';

/**
 * A `POST /v1/messages/count_tokens` body → IR: the Messages body without `max_tokens` and `stream`
 * (which that endpoint does not take), validated by the same rules.
 */
export function decodeAnthropicTokenCountRequest(body: unknown, options?: DecodeOptions): GenerationRequest {
  if (!isJSONObject(body)) throw new GatewayError({ code: 'INVALID_REQUEST', message: 'Invalid request: the body must be a JSON object.' });
  // The count endpoint generates nothing, so it takes neither a token limit nor a stream flag.
  const generationOnly = ['max_tokens', 'stream'].find(field => field in body);
  if (generationOnly !== undefined) throw unknownParameter(generationOnly);
  return decodeAnthropicRequest({ ...body, max_tokens: 1 }, options).value;
}
