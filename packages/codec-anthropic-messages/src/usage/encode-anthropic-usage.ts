import type { JSONObject, Usage } from '@signalbox/core';

/**
 * IR usage → the Messages `usage` object (every field the SDK's `Usage` type requires). Cached
 * tokens are subtracted from `input_tokens`, which in Messages counts uncached input only.
 */
export function encodeAnthropicUsage(usage: Usage | undefined): JSONObject {
  const cacheRead = usage?.cacheReadTokens ?? 0;
  const cacheWrite = usage?.cacheWriteTokens ?? 0;
  return {
    input_tokens: uncachedInput(usage) ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    cache_creation: null,
    inference_geo: null,
    output_tokens: usage?.outputTokens ?? 0,
    output_tokens_details: thinkingDetails(usage),
    server_tool_use: null,
    service_tier: null,
    speed: null,
  };
}

/**
 * IR usage → `message_delta.usage`: final cumulative counts. Unknown input counts are `null`, which
 * the SDK reads as "keep the `message_start` value"; known ones overwrite it.
 */
export function encodeAnthropicDeltaUsage(usage: Usage): JSONObject {
  return {
    input_tokens: uncachedInput(usage) ?? null,
    cache_creation_input_tokens: usage.cacheWriteTokens ?? null,
    cache_read_input_tokens: usage.cacheReadTokens ?? null,
    output_tokens: usage.outputTokens ?? 0,
    output_tokens_details: thinkingDetails(usage),
    server_tool_use: null,
  };
}

function uncachedInput(usage: Usage | undefined): number | undefined {
  if (usage?.inputTokens === undefined) return undefined;
  return Math.max(0, usage.inputTokens - (usage.cacheReadTokens ?? 0) - (usage.cacheWriteTokens ?? 0));
}

function thinkingDetails(usage: Usage | undefined): JSONObject | null {
  return usage?.reasoningTokens !== undefined ? { thinking_tokens: usage.reasoningTokens } : null;
}
