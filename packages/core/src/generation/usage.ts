/**
 * Token counts of one generation. `undefined` means "the upstream did not say", never 0.
 * Input counts follow OpenAI's semantics: cached and cache-write tokens are *included* in
 * `inputTokens` (Anthropic's uncached `input_tokens` is converted by its codec), and reasoning
 * tokens are included in `outputTokens`.
 */
export type Usage = {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  /** Input tokens read from a prompt cache (a subset of `inputTokens`). */
  cacheReadTokens: number | undefined;
  /** Input tokens written to a prompt cache (a subset of `inputTokens`). */
  cacheWriteTokens: number | undefined;
  /**
   * Cache writes kept for 1 hour (a subset of `cacheWriteTokens`); the other writes have the default
   * lifetime of 5 minutes. `undefined` when the upstream did not split its writes by lifetime.
   */
  cacheWrite1hTokens: number | undefined;
  /** Output tokens spent on reasoning (a subset of `outputTokens`). */
  reasoningTokens: number | undefined;
  /** True when the counts are the gateway's estimate rather than the upstream's report. */
  estimated?: boolean;
};

export function emptyUsage(): Usage {
  return {
    inputTokens: undefined,
    outputTokens: undefined,
    cacheReadTokens: undefined,
    cacheWriteTokens: undefined,
    cacheWrite1hTokens: undefined,
    reasoningTokens: undefined,
  };
}
