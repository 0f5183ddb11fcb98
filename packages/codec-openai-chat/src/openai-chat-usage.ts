import type { JSONObject, Usage } from '@signalbox/core';
import type { OpenAIChatUsage } from './openai-chat-api';

/** Upstream `usage` → IR; counts the upstream did not report stay `undefined` (never 0). */
export function decodeOpenAIChatUsage(usage: OpenAIChatUsage | null | undefined): Usage {
  return {
    inputTokens: usage?.prompt_tokens ?? undefined,
    outputTokens: usage?.completion_tokens ?? undefined,
    cacheReadTokens:
      usage?.prompt_tokens_details?.cached_tokens ?? usage?.prompt_cache_hit_tokens ?? undefined,
    cacheWriteTokens: usage?.prompt_tokens_details?.cache_write_tokens ?? undefined,
    // Chat reports no lifetime of its cache writes.
    cacheWrite1hTokens: undefined,
    reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens ?? undefined,
  };
}

/**
 * IR → the client's `usage` object. Chat has no "unknown": unreported counts go out as 0.
 * `prompt_tokens` already includes cached tokens (IR follows OpenAI's semantics).
 */
export function encodeOpenAIChatUsage(usage: Usage): JSONObject {
  const promptTokens = usage.inputTokens ?? 0;
  const completionTokens = usage.outputTokens ?? 0;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: {
      cached_tokens: usage.cacheReadTokens ?? 0,
      ...(usage.cacheWriteTokens !== undefined && { cache_write_tokens: usage.cacheWriteTokens }),
    },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}
