import type { JSONObject, Usage } from '@signalbox/core';

/**
 * IR usage → the Messages `usage` object as the API writes it. Cached tokens are subtracted from
 * `input_tokens`, which in Messages counts uncached input only. The members the API sends on every
 * answer are there (`null` when the upstream did not say, as `cache_creation` without a split of
 * the writes by lifetime); those it sends only with a value (`output_tokens_details`,
 * `server_tool_use`, `speed`) are left out without one.
 */
export function encodeAnthropicUsage(usage: Usage | undefined): JSONObject {
  return {
    input_tokens: uncachedInput(usage) ?? 0,
    cache_creation_input_tokens: usage?.cacheWriteTokens ?? 0,
    cache_read_input_tokens: usage?.cacheReadTokens ?? 0,
    cache_creation: cacheCreation(usage),
    output_tokens: usage?.outputTokens ?? 0,
    ...thinkingDetails(usage),
    service_tier: null,
    inference_geo: null,
  };
}

/**
 * IR usage → `message_delta.usage`: final cumulative counts. Unknown input counts are left out, as
 * the API does, which the SDK reads as "keep the `message_start` value"; known ones overwrite it.
 */
export function encodeAnthropicDeltaUsage(usage: Usage): JSONObject {
  const input = uncachedInput(usage);
  return {
    ...(input !== undefined && { input_tokens: input }),
    ...(usage.cacheWriteTokens !== undefined && { cache_creation_input_tokens: usage.cacheWriteTokens }),
    ...(usage.cacheReadTokens !== undefined && { cache_read_input_tokens: usage.cacheReadTokens }),
    output_tokens: usage.outputTokens ?? 0,
    ...thinkingDetails(usage),
  };
}

function uncachedInput(usage: Usage | undefined): number | undefined {
  if (usage?.inputTokens === undefined) return undefined;
  return Math.max(0, usage.inputTokens - (usage.cacheReadTokens ?? 0) - (usage.cacheWriteTokens ?? 0));
}

/** The writes by lifetime: the 1-hour ones as reported, the rest of the writes 5-minute ones. */
function cacheCreation(usage: Usage | undefined): JSONObject | null {
  if (usage?.cacheWrite1hTokens === undefined) return null;
  return {
    ephemeral_5m_input_tokens: Math.max(0, (usage.cacheWriteTokens ?? 0) - usage.cacheWrite1hTokens),
    ephemeral_1h_input_tokens: usage.cacheWrite1hTokens,
  };
}

function thinkingDetails(usage: Usage | undefined): JSONObject {
  return usage?.reasoningTokens !== undefined
    ? { output_tokens_details: { thinking_tokens: usage.reasoningTokens } }
    : {};
}
