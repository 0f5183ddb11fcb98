import { GatewayError, isJSONObject, type DecodeOptions, type GenerationRequest } from '@switchyard/core';
import { decodeAnthropicRequest } from '../request/decode-anthropic-request';

/**
 * A `POST /v1/messages/count_tokens` body → IR: the Messages body without `max_tokens` and `stream`
 * (which that endpoint does not take), validated by the same rules.
 */
export function decodeAnthropicTokenCountRequest(body: unknown, options?: DecodeOptions): GenerationRequest {
  if (!isJSONObject(body)) throw new GatewayError({ code: 'INVALID_REQUEST', message: 'Invalid request: the body must be a JSON object.' });
  for (const field of ['max_tokens', 'stream']) {
    if (field in body) {
      throw new GatewayError({ code: 'INVALID_REQUEST', param: field, message: `Unknown parameter: '${field}' (count_tokens takes no ${field}).` });
    }
  }
  return decodeAnthropicRequest({ ...body, max_tokens: 1 }, options).value;
}
