import { createId, type EncodeContext, type GenerationResponse, type JSONObject } from '@signalbox/core';
import { encodeGeminiFinishReason } from '../gemini-finish-reason';
import { includesThoughts } from '../gemini-options';
import { encodeGeminiUsage } from '../gemini-usage';
import { encodeGeminiOutputParts } from './gemini-output-parts';

/**
 * IR → a Gemini client's `GenerateContentResponse`: one candidate, the client's model ID as
 * `modelVersion`, a response id of the gateway's.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
export function encodeGeminiResponse(response: GenerationResponse, context: EncodeContext): JSONObject {
  const parts = encodeGeminiOutputParts(response.content, includesThoughts(context.request));
  return {
    candidates: [
      {
        content: { role: 'model', parts: parts as JSONObject[] },
        finishReason: encodeGeminiFinishReason(response.finishReason),
        index: 0,
      },
    ],
    usageMetadata: encodeGeminiUsage(response.usage),
    modelVersion: context.request.model,
    responseId: createId(''),
  };
}
