import type { KindTokenCount } from '@signalbox/core';

/**
 * Vertex AI's token counting for Anthropic models: `count-tokens:rawPredict` under the location's
 * Anthropic publisher, its body the Messages token-count body with `anthropic_version` and the model
 * named in it, answered as Anthropic's `{"input_tokens": N}`.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/count-tokens
 */
export function vertexTokenCount(version: string): KindTokenCount {
  return {
    path: () => '/publishers/anthropic/models/count-tokens:rawPredict',
    body: (body, model) => ({ anthropic_version: version, ...body, model }),
    countField: 'input_tokens',
  };
}
