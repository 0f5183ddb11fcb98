import type { CacheScope } from './breakpoint-prompt-cache';
import { digestAtCharacters } from './prompt-prefix-digests';
import { NO_PROMPT_CACHE_USAGE, tokensOf, type PromptCacheUsage } from './prompt-cache-usage';
import type { SimulatedRequest } from './simulated-request';

/** OpenAI caches prompts in steps of this many tokens past the minimum. */
const INCREMENT_TOKENS = 128;

/**
 * OpenAI caching: a prompt of at least the minimum (1,024 tokens) is cached at every 128-token step
 * from the minimum, keyed by the prefix, the model and `prompt_cache_key`; the longest step already
 * cached is reported as `cached_tokens`. OpenAI reports no writes.
 * @see https://platform.openai.com/docs/guides/prompt-caching
 */
export function applyAutomaticCache(request: SimulatedRequest, scope: CacheScope): PromptCacheUsage {
  const wholeTokens = Math.floor(request.inputCharacters / 4);
  if (wholeTokens < scope.minimumTokens) return NO_PROMPT_CACHE_USAGE;
  const positions: number[] = [];
  for (let tokens = scope.minimumTokens; tokens <= wholeTokens; tokens += INCREMENT_TOKENS) positions.push(tokens * 4);
  const cacheKey = `openai\u0000${request.model}\u0000${request.promptCacheKey ?? ''}`;
  const prefixes = digestAtCharacters(request.promptBlocks, cacheKey, positions);
  let readTokens = 0;
  for (let index = prefixes.length - 1; index >= 0 && readTokens === 0; index -= 1) {
    const prefix = prefixes[index];
    if (prefix !== undefined && scope.store.read(scope.credential, prefix.digest, scope.now)) readTokens = tokensOf(prefix.characters);
  }
  for (const prefix of prefixes) scope.store.write(scope.credential, prefix.digest, request.promptCacheTtlSeconds, scope.now);
  return { ...NO_PROMPT_CACHE_USAGE, readTokens };
}
