import { isJSONObject, isOptionalBoolean, isOptionalCount, isOptionalInRange, isOptionalString, type JSONObject } from '@signalbox/core';
import { isTextContent } from '../read-common-gemini-response';
import type { GeminiRequest } from './gemini-request-schema';

// The top-level fields of the common request; any other (tools, safety settings, cached content,
// labels, or a field the schema refuses) sends the body to the schema.
const COMMON_FIELDS = new Set(['model', 'contents', 'systemInstruction', 'generationConfig']);

/**
 * The request nearly every client sends (text contents, a system instruction, plain generation
 * settings), checked field by field and returned as is: the schema's copy of such a body is equal
 * to it. `undefined` leaves the body to the schema, which takes everything else and names what is wrong.
 */
export function readCommonGeminiRequest(body: JSONObject): GeminiRequest | undefined {
  for (const key in body) if (!COMMON_FIELDS.has(key)) return undefined;
  const { contents, systemInstruction } = body;
  if (!isOptionalString(body.model) || !Array.isArray(contents)) return undefined;
  for (const content of contents) if (!isTextContent(content)) return undefined;
  if (systemInstruction !== undefined && !isTextContent(systemInstruction)) return undefined;
  const config = body.generationConfig;
  return config === undefined || isCommonConfig(config) ? (body as GeminiRequest) : undefined;
}

// Scalar settings and thinking; response schemas and stop sequences go to the schema.
function isCommonConfig(config: unknown): boolean {
  if (
    !isJSONObject(config) ||
    config.stopSequences !== undefined ||
    config.responseSchema !== undefined ||
    config.responseJsonSchema !== undefined ||
    !isOptionalString(config.responseMimeType) ||
    !isOptionalCount(config.candidateCount, 1) ||
    !isOptionalCount(config.maxOutputTokens, 1) ||
    !isOptionalCount(config.topK, Number.MIN_SAFE_INTEGER) ||
    !isOptionalInRange(config.temperature, 0) ||
    !isOptionalInRange(config.topP, 0, 1)
  )
    return false;
  const thinking = config.thinkingConfig;
  return (
    thinking === undefined ||
    (isJSONObject(thinking) &&
      isOptionalBoolean(thinking.includeThoughts) &&
      isOptionalCount(thinking.thinkingBudget, Number.MIN_SAFE_INTEGER) &&
      isOptionalString(thinking.thinkingLevel))
  );
}
