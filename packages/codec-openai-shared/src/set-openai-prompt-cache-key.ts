import type { JSONObject } from '@signalbox/core';

/**
 * A Responses or Chat body with `prompt_cache_key` set to `key`, unless the client sent one (then
 * the body comes back as given); a new object, the given one unchanged.
 * @see https://platform.openai.com/docs/guides/prompt-caching
 */
export function setOpenAIPromptCacheKey(body: JSONObject, key: string): JSONObject {
  return body.prompt_cache_key === undefined || body.prompt_cache_key === null ? { ...body, prompt_cache_key: key } : body;
}
