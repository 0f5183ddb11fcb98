import { DEFAULT_CACHE_TTL_SECONDS } from './prompt-cache-usage';
import { asString } from './read-text-content';
import type { SimulatedRequest } from './simulated-request';

/** `prompt_cache_retention: '24h'` keeps an automatic cache entry a day. */
const EXTENDED_CACHE_TTL_SECONDS = 24 * 60 * 60;

/**
 * The OpenAI fields that shape automatic prompt caching (Responses and Chat alike): the
 * `prompt_cache_key` that joins the prefix in the cache key, and the retention.
 * @see https://platform.openai.com/docs/guides/prompt-caching
 */
export function readOpenAIPromptCache(body: Record<string, unknown>): Pick<SimulatedRequest, 'promptCacheKey' | 'promptCacheTtlSeconds'> {
  return {
    promptCacheKey: asString(body.prompt_cache_key),
    promptCacheTtlSeconds: body.prompt_cache_retention === '24h' ? EXTENDED_CACHE_TTL_SECONDS : DEFAULT_CACHE_TTL_SECONDS,
  };
}
