import type { Usage } from '@signalbox/core';

/** The usage counters Messages reports (response `usage`, `message_start`, `message_delta`). */
export type AnthropicUsageCounts = {
  input_tokens?: number | null | undefined;
  output_tokens?: number | null | undefined;
  cache_creation_input_tokens?: number | null | undefined;
  cache_read_input_tokens?: number | null | undefined;
  cache_creation?:
    | { ephemeral_5m_input_tokens?: number | null | undefined; ephemeral_1h_input_tokens?: number | null | undefined }
    | null
    | undefined;
  output_tokens_details?: { thinking_tokens?: number | null | undefined } | null | undefined;
};

/**
 * Messages usage → IR usage. Anthropic's `input_tokens` excludes cache reads and writes; the IR
 * includes them, so they are added back. The 1-hour writes come from `cache_creation`, the split of
 * `cache_creation_input_tokens` by lifetime. Counts the upstream did not report stay `undefined`.
 * @see https://docs.anthropic.com/en/api/messages (`usage`)
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching (cache lifetimes)
 */
export function decodeAnthropicUsage(usage: AnthropicUsageCounts | null | undefined): Usage {
  const input = usage?.input_tokens ?? undefined;
  const cacheWrite = usage?.cache_creation_input_tokens ?? undefined;
  const cacheRead = usage?.cache_read_input_tokens ?? undefined;
  return {
    inputTokens: input === undefined ? undefined : input + (cacheWrite ?? 0) + (cacheRead ?? 0),
    outputTokens: usage?.output_tokens ?? undefined,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    cacheWrite1hTokens: usage?.cache_creation?.ephemeral_1h_input_tokens ?? undefined,
    reasoningTokens: usage?.output_tokens_details?.thinking_tokens ?? undefined,
  };
}
