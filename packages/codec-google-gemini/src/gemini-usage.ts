import type { JSONObject, Usage } from '@signalbox/core';
import type { GeminiUsage } from './gemini-api';

/**
 * `usageMetadata` → IR. Gemini counts thoughts apart from the candidates and the tool-use prompt
 * apart from the prompt; the IR's output includes reasoning and its input the whole prompt, cached
 * tokens among them (`cachedContentTokenCount` is a subset of `promptTokenCount`).
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
export function decodeGeminiUsage(usage: GeminiUsage | undefined): Usage {
  const prompt = usage?.promptTokenCount;
  const candidates = usage?.candidatesTokenCount;
  const thoughts = usage?.thoughtsTokenCount;
  const input = prompt === undefined ? undefined : prompt + (usage?.toolUsePromptTokenCount ?? 0);
  const output = candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0);
  return {
    inputTokens: input,
    outputTokens: output,
    cacheReadTokens: usage?.cachedContentTokenCount ?? (usage === undefined ? undefined : 0),
    // Gemini's implicit caching bills no writes.
    cacheWriteTokens: usage === undefined ? undefined : 0,
    cacheWrite1hTokens: undefined,
    reasoningTokens: thoughts ?? (usage === undefined ? undefined : 0),
  };
}

/** IR → `usageMetadata`: thoughts apart from the candidates, cached tokens only when there are some, as Gemini reports them. */
export function encodeGeminiUsage(usage: Usage): JSONObject {
  const prompt = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const thoughts = Math.min(usage.reasoningTokens ?? 0, output);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: output - thoughts,
    totalTokenCount: prompt + output,
    ...(usage.cacheReadTokens ? { cachedContentTokenCount: usage.cacheReadTokens } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}
