import { isJSONObject, type JSONObject } from '@signalbox/core';

/** Anthropic's smallest thinking budget. */
const MINIMUM_BUDGET_TOKENS = 1024;

/**
 * A Messages body whose `max_tokens` is at most `tokens` (a smaller one the client set stays).
 * Thinking tokens count toward `max_tokens` and `budget_tokens` must stay below it, so an enabled
 * thinking budget is lowered under the new limit, and thinking is turned off when no budget of at
 * least Anthropic's minimum fits (the upstream would refuse the request otherwise).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size
 */
export function capAnthropicOutputTokens(body: JSONObject, tokens: number): JSONObject {
  const own = body.max_tokens;
  if (typeof own === 'number' && own <= tokens) return body;
  const capped: JSONObject = { ...body, max_tokens: tokens };
  const thinking = body.thinking;
  if (!isJSONObject(thinking) || thinking.type !== 'enabled' || typeof thinking.budget_tokens !== 'number') return capped;
  if (thinking.budget_tokens < tokens) return capped;
  if (tokens - 1 >= MINIMUM_BUDGET_TOKENS) capped.thinking = { ...thinking, budget_tokens: tokens - 1 };
  else delete capped.thinking;
  return capped;
}
