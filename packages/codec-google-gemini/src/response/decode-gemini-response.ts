import { GatewayError, type GenerationResponse } from '@signalbox/core';
import { geminiResponseSchema } from '../gemini-api';
import { decodeGeminiFinishReason } from '../gemini-finish-reason';
import { decodeGeminiUsage } from '../gemini-usage';
import { readCommonGeminiResponse } from '../read-common-gemini-response';
import { decodeGeminiOutputParts } from './gemini-output-parts';

/**
 * An upstream's `GenerateContentResponse` → IR, from its first candidate. A prompt blocked before
 * any candidate (`promptFeedback.blockReason`) is an empty answer stopped by a filter.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
export function decodeGeminiResponse(body: unknown): GenerationResponse {
  const wire = readCommonGeminiResponse(body) ?? geminiResponseSchema.safeParse(body).data;
  if (wire === undefined) throw new GatewayError({ code: 'UPSTREAM_FAILED', message: 'The upstream answered with a body that is not a Gemini response.' });
  const candidate = wire.candidates?.[0];
  const content = decodeGeminiOutputParts(candidate?.content?.parts ?? [], wire.responseId);
  const blocked = candidate === undefined ? wire.promptFeedback?.blockReason : undefined;
  const finishReason = blocked
    ? { unified: 'content-filter' as const, raw: blocked }
    : decodeGeminiFinishReason(candidate?.finishReason, content.some(part => part.type === 'tool-call'));
  return { id: wire.responseId ?? '', model: wire.modelVersion ?? '', content, finishReason, usage: decodeGeminiUsage(wire.usageMetadata) };
}
