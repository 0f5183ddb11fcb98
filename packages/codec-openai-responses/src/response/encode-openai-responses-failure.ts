import { encodeOpenAIErrorObject } from '@signalbox/codec-openai-shared';
import type { GatewayError, JSONObject } from '@signalbox/core';

/** The `code` values SDK 7.57 types for `Response.error` (`ResponseError['code']`). */
const RESPONSE_ERROR_CODES: ReadonlySet<string> = new Set([
  'server_error',
  'rate_limit_exceeded',
  'invalid_prompt',
  'data_residency_mismatch',
  'bio_policy',
  'misalignment_policy_violation',
  'vector_store_timeout',
  'invalid_image',
  'invalid_image_format',
  'invalid_base64_image',
  'invalid_image_url',
  'image_too_large',
  'image_too_small',
  'image_parse_error',
  'image_content_policy_violation',
  'invalid_image_mode',
  'image_file_too_large',
  'unsupported_image_media_type',
  'empty_image_file',
  'failed_to_download_image',
  'image_file_not_found',
]);

/**
 * A `GatewayError` → the `error` member of a failed Response (`{ code, message, type, param }`).
 * `code` stays within the SDK's enum: the OpenAI word when it is one, else `rate_limit_exceeded`
 * for 429s and `server_error` for everything else.
 */
export function encodeOpenAIResponsesFailure(error: GatewayError): JSONObject {
  const envelope = encodeOpenAIErrorObject(error);
  const code = envelope.code !== null && RESPONSE_ERROR_CODES.has(envelope.code)
    ? envelope.code
    : error.status === 429
      ? 'rate_limit_exceeded'
      : 'server_error';
  return { code, message: envelope.message, type: envelope.type, param: envelope.param };
}

/** The `error` of a Response whose IR finish reason is `error`: the upstream stopped without saying more. */
export function endedWithErrorFailure(): JSONObject {
  return { code: 'server_error', message: 'The upstream ended the response with an error.' };
}
