import { isJSONObject, isNullishNumber, isNullishString } from '@signalbox/core';
import type { OpenAIChatResponse, OpenAIChatUsage } from '../openai-chat-api';

type Choice = OpenAIChatResponse['choices'][number];
type Nullish<Value> = Value | null | undefined;

/**
 * The answer nearly every upstream gives (text, reasoning or a refusal in each choice, no tool
 * calls, usage), checked field by field and copied with the fields the schema keeps, without the
 * schema's walk. `undefined` leaves the body to the schema, which takes everything else.
 */
export function readCommonChatResponse(value: unknown): OpenAIChatResponse | undefined {
  if (!isJSONObject(value) || !isNullishString(value.id) || !isNullishString(value.model) || !Array.isArray(value.choices))
    return undefined;
  const choices: Choice[] = [];
  for (const choice of value.choices) {
    const read = readChoice(choice);
    if (read === undefined) return undefined;
    choices.push(read);
  }
  const usage = readCommonChatUsage(value.usage);
  if (usage === false) return undefined;
  return { id: value.id, model: value.model, choices, usage };
}

// `tool_calls` is taken only as null: an answer with calls goes to the schema.
function readChoice(choice: unknown): Choice | undefined {
  if (!isJSONObject(choice) || !isNullishNumber(choice.index) || !isNullishString(choice.finish_reason)) return undefined;
  const message = choice.message;
  if (
    !isJSONObject(message) ||
    !isNullishString(message.content) ||
    !isNullishString(message.reasoning_content) ||
    !isNullishString(message.reasoning) ||
    !isNullishString(message.refusal) ||
    (message.tool_calls !== undefined && message.tool_calls !== null)
  )
    return undefined;
  return {
    index: choice.index,
    message: {
      content: message.content,
      reasoning_content: message.reasoning_content,
      reasoning: message.reasoning,
      refusal: message.refusal,
      tool_calls: message.tool_calls,
    },
    finish_reason: choice.finish_reason,
  };
}

/** `usage` as the schema leaves it, in a copy of fixed shape; `false` when the schema would refuse it. */
export function readCommonChatUsage(usage: unknown): Nullish<OpenAIChatUsage> | false {
  if (usage == null) return usage;
  if (
    !isJSONObject(usage) ||
    !isNullishNumber(usage.prompt_tokens) ||
    !isNullishNumber(usage.completion_tokens) ||
    !isNullishNumber(usage.prompt_cache_hit_tokens)
  )
    return false;
  const prompt = usage.prompt_tokens_details;
  const completion = usage.completion_tokens_details;
  if (prompt != null && !(isJSONObject(prompt) && isNullishNumber(prompt.cached_tokens) && isNullishNumber(prompt.cache_write_tokens)))
    return false;
  if (completion != null && !(isJSONObject(completion) && isNullishNumber(completion.reasoning_tokens))) return false;
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    prompt_tokens_details:
      prompt == null ? prompt : { cached_tokens: prompt.cached_tokens as Nullish<number>, cache_write_tokens: prompt.cache_write_tokens as Nullish<number> },
    completion_tokens_details: completion == null ? completion : { reasoning_tokens: completion.reasoning_tokens as Nullish<number> },
    prompt_cache_hit_tokens: usage.prompt_cache_hit_tokens,
  };
}
