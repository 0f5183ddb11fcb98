import type { JSONObject } from '@signalbox/core';

/**
 * A Chat body whose output limit is at most `tokens`, in the field the client used: the deprecated
 * `max_tokens` (which older OpenAI-compatible servers know alone) or `max_completion_tokens`, which
 * is set when the client sent neither. A smaller limit the client set stays.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-max_completion_tokens
 */
export function capOpenAIChatOutputTokens(body: JSONObject, tokens: number): JSONObject {
  const fields = (['max_completion_tokens', 'max_tokens'] as const).filter(field => typeof body[field] === 'number');
  if (fields.length === 0) return { ...body, max_completion_tokens: tokens };
  const capped: JSONObject = { ...body };
  for (const field of fields) capped[field] = Math.min(body[field] as number, tokens);
  return capped;
}
