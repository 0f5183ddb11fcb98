import { isJSONObject, type JSONObject, type Usage } from '@signalbox/core';

/**
 * Responses `usage` → IR. `cached_tokens` and `cache_write_tokens` are subsets of `input_tokens`, as in
 * the IR. Its write lifetimes (`cache_write_tokens_details`: 30 minutes, 12 hours) are not Anthropic's
 * 5 minutes and 1 hour, so they are not carried: every write is priced as a default one.
 */
export function decodeOpenAIResponsesUsage(usage: unknown): Usage {
  const wire = isJSONObject(usage) ? usage : {};
  const inputDetails = isJSONObject(wire.input_tokens_details) ? wire.input_tokens_details : {};
  const outputDetails = isJSONObject(wire.output_tokens_details) ? wire.output_tokens_details : {};
  return {
    inputTokens: count(wire.input_tokens),
    outputTokens: count(wire.output_tokens),
    cacheReadTokens: count(inputDetails.cached_tokens),
    cacheWriteTokens: count(inputDetails.cache_write_tokens),
    cacheWrite1hTokens: undefined,
    reasoningTokens: count(outputDetails.reasoning_tokens),
  };
}

/** IR usage → the client's `usage`; every member is required by the SDK types, so unknown counts are 0. */
export function encodeOpenAIResponsesUsage(usage: Usage): JSONObject {
  const inputTokens = usage.inputTokens ?? 0;
  const outputTokens = usage.outputTokens ?? 0;
  return {
    input_tokens: inputTokens,
    input_tokens_details: {
      cached_tokens: usage.cacheReadTokens ?? 0,
      cache_write_tokens: usage.cacheWriteTokens ?? 0,
    },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: inputTokens + outputTokens,
  };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
