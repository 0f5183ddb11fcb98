import type { JSONObject, KindTokenCount } from '@signalbox/core';

/** A cross-region inference profile's geography prefix (`us.`, `eu.`, `apac.`, `global.`) before an Anthropic model ID. */
const INFERENCE_PROFILE = /^[a-z]{2,6}(?:-[a-z]+)?\.(anthropic\..+)$/;

/**
 * Bedrock's CountTokens (`POST /model/{modelId}/count-tokens`): the InvokeModel body Bedrock would
 * be sent, base64 in `input.invokeModel.body`, answered `{"inputTokens": N}`. CountTokens takes
 * foundation model IDs, so an inference profile is counted as the model it routes to. An identity
 * that may not count is answered `AccessDeniedException` (403), unlike wrong or expired keys
 * (`UnrecognizedClientException`, `InvalidSignatureException`, `ExpiredTokenException`).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CountTokens.html
 * @see https://docs.aws.amazon.com/awsconsolehelpdocs/latest/gsg/common-errors.html
 */
export function bedrockTokenCount(version: string): KindTokenCount {
  return {
    path: model => `/model/${encodeURIComponent(INFERENCE_PROFILE.exec(model)?.[1] ?? model)}/count-tokens`,
    body(body) {
      const { model: _model, ...rest } = body;
      // InvokeModel requires an output limit; a token-count body has none, and it counts no output.
      const invokeModelBody: JSONObject = { anthropic_version: version, max_tokens: 1, ...rest };
      return { input: { invokeModel: { body: Buffer.from(JSON.stringify(invokeModelBody)).toString('base64') } } };
    },
    countField: 'inputTokens',
    // An identity without `bedrock:CountTokens` may still invoke; wrong or expired keys are refused otherwise.
    deniedTypes: ['AccessDeniedException'],
  };
}
