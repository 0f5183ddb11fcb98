import type { UpstreamCall } from '@signalbox/core';

/** The protocol name of Gemini's generateContent, which Vertex AI serves for Google's own models. */
export const GEMINI_PROTOCOL = 'google-gemini';

/**
 * The path of a Messages call under a Vertex AI location's base URL
 * (`https://{region}-aiplatform.googleapis.com/v1/projects/{project}/locations/{region}`): the
 * publisher model's `:rawPredict`, or `:streamRawPredict` for a streamed answer. A model ID keeps
 * its version's `@` (`claude-sonnet-4-5@20250929`) as Vertex writes it.
 */
export function vertexPath(call: UpstreamCall): string {
  const model = encodeURIComponent(call.model).replaceAll('%40', '@');
  return `/publishers/anthropic/models/${model}:${call.stream ? 'streamRawPredict' : 'rawPredict'}`;
}


/**
 * The path of a Gemini call under the same base URL: Google's publisher model's `:generateContent`,
 * or `:streamGenerateContent?alt=sse` for a streamed answer in SSE.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/streamGenerateContent
 */
export function vertexGeminiPath(call: UpstreamCall): string {
  const model = encodeURIComponent(call.model).replaceAll('%40', '@');
  return `/publishers/google/models/${model}:${call.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}
