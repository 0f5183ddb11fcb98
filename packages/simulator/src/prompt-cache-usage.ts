/** How long a cache entry lives unused unless a request asks for longer: 5 minutes, as both vendors document. */
export const DEFAULT_CACHE_TTL_SECONDS = 300;

/**
 * What one request's prompt did in the simulator's prompt cache, in tokens of its input: read from
 * a cached prefix, or written to the cache by lifetime (writes are reported on Messages only).
 */
export type PromptCacheUsage = { readTokens: number; write5mTokens: number; write1hTokens: number };

/** Nothing read, nothing written. */
export const NO_PROMPT_CACHE_USAGE: PromptCacheUsage = Object.freeze({ readTokens: 0, write5mTokens: 0, write1hTokens: 0 });

/** Tokens of a prefix of `characters` characters: the simulator's count, one token per four characters, rounded up. */
export function tokensOf(characters: number): number {
  return Math.ceil(characters / 4);
}
