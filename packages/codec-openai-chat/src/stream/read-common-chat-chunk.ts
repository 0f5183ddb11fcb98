import { isJSONObject, isNullishNumber, isNullishString } from '@signalbox/core';
import type { OpenAIChatChunk } from '../openai-chat-api';
import { readCommonChatUsage } from '../response/read-common-chat-response';

/**
 * The chunks nearly every frame of a stream is (text, reasoning or a refusal; no tool calls) and the
 * last one with usage, checked field by field without the schema's copy of them. `undefined` leaves
 * the chunk to the schema, which takes everything else and says what is wrong with a malformed one.
 */
export function readCommonChatChunk(value: unknown): OpenAIChatChunk | undefined {
  if (!isJSONObject(value) || !isNullishString(value.id) || !isNullishString(value.model)) return undefined;
  const choices = value.choices;
  if (choices != null) {
    if (!Array.isArray(choices)) return undefined;
    for (const choice of choices) if (!isCommonChoice(choice)) return undefined;
  }
  if (value.usage == null) return value as OpenAIChatChunk;
  // Once a stream: the usage is copied with the fields the schema keeps, as the schema would.
  const usage = readCommonChatUsage(value.usage);
  return usage === false ? undefined : ({ ...value, usage } as OpenAIChatChunk);
}

function isCommonChoice(choice: unknown): boolean {
  if (!isJSONObject(choice) || !isNullishNumber(choice.index) || !isNullishString(choice.finish_reason)) return false;
  const delta = choice.delta;
  if (delta == null) return true;
  return (
    isJSONObject(delta) &&
    delta.tool_calls == null &&
    isNullishString(delta.content) &&
    isNullishString(delta.reasoning_content) &&
    isNullishString(delta.reasoning) &&
    isNullishString(delta.refusal)
  );
}
