import type { GenerationRequest, JSONObject } from '@signalbox/core';

/** The protocol name this codec's `providerOptions` are kept under. */
export const GEMINI_PROTOCOL = 'google-gemini';

/**
 * What a Gemini client sent that only a Gemini upstream takes (`safetySettings`, built-in `tools`,
 * `cachedContent`, `labels`, Gemini-only `generationConfig` settings), plus two markers this codec
 * reads itself: `includeThoughts` (does the client want thought parts?) and `alt` (how its stream
 * is framed).
 */
export function getGeminiOptions(request: GenerationRequest): JSONObject | undefined {
  return request.providerOptions?.[GEMINI_PROTOCOL];
}

/** True when the client's stream is Server-Sent Events (`?alt=sse`), not a JSON array. */
export function streamsAsSSE(request: GenerationRequest): boolean {
  return getGeminiOptions(request)?.alt === 'sse';
}

/** True when the client asked for thought parts (`thinkingConfig.includeThoughts`). */
export function includesThoughts(request: GenerationRequest): boolean {
  return getGeminiOptions(request)?.includeThoughts === true;
}
