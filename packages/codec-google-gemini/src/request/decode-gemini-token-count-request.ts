import { createValidationError, isJSONObject, type DecodeOptions, type GenerationRequest } from '@signalbox/core';
import { decodeGeminiRequest } from './decode-gemini-request';

/**
 * A `countTokens` body → the IR request it counts: `contents` alone, or a whole
 * `generateContentRequest` (its model named in the path all the same).
 * @see https://ai.google.dev/api/tokens#method:-models.counttokens
 */
export function decodeGeminiTokenCountRequest(body: unknown, options: DecodeOptions = {}): GenerationRequest {
  if (!isJSONObject(body)) throw createValidationError([{ path: [], message: 'The body must be a JSON object' }]);
  const { generateContentRequest, contents, ...rest } = body;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw createValidationError([{ path: [unknown[0]!], message: 'Unknown field: send `contents` or `generateContentRequest`' }]);
  const inner = isJSONObject(generateContentRequest) ? generateContentRequest : { contents: contents ?? [] };
  return decodeGeminiRequest(inner, { ...options, endpoint: { ...options.endpoint, stream: false } }).value;
}
