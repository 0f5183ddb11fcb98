import type { UpstreamCall } from '@signalbox/core';

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

