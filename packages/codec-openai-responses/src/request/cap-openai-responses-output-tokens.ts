import type { JSONObject } from '@signalbox/core';

/**
 * A Responses body whose `max_output_tokens` is at most `tokens`: set when the client sent none,
 * lowered when it sent more, left alone when it sent less.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-max_output_tokens
 */
export function capOpenAIResponsesOutputTokens(body: JSONObject, tokens: number): JSONObject {
  const own = body.max_output_tokens;
  if (typeof own === 'number' && own <= tokens) return body;
  return { ...body, max_output_tokens: tokens };
}
