import type { GenerationRequest } from '@signalbox/core';

/**
 * The request with its conversation's key as the prompt cache key when the client sent none, so an
 * OpenAI upstream keeps every request of the conversation on the cache that holds its prefix; the
 * request as it is otherwise (the client's own key wins).
 * @see https://platform.openai.com/docs/guides/prompt-caching
 */
export function withConversationCacheKey(request: GenerationRequest, conversationKey: string | undefined): GenerationRequest {
  return conversationKey === undefined || request.promptCacheKey !== undefined ? request : { ...request, promptCacheKey: conversationKey };
}
