import { isJSONObject, type GenerationRequest, type JSONObject } from '@signalbox/core';

/**
 * The Chat-only fields a Chat client sent, under their wire names (`n`, `seed`, `logit_bias`…),
 * plus two markers the Chat codec itself reads: `stream_options` (did the client ask for the
 * usage chunk?) and `max_tokens` (present when the client capped output with the deprecated name).
 */
export function getOpenAIChatOptions(request: GenerationRequest): JSONObject | undefined {
  return request.providerOptions?.['openai-chat'];
}

/** True when the Chat client asked for the final usage-only chunk (`stream_options.include_usage`). */
export function clientRequestedUsage(request: GenerationRequest): boolean {
  const streamOptions = getOpenAIChatOptions(request)?.stream_options;
  return isJSONObject(streamOptions) && streamOptions.include_usage === true;
}
