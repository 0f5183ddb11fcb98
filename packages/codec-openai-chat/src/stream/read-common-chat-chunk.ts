import { isJSONObject } from '@signalbox/core';
import type { OpenAIChatChunk } from '../openai-chat-api';

/**
 * The chunk nearly every frame of a stream is (text, reasoning or a refusal; no tool calls, no
 * usage), checked field by field without the schema's copy of it. `undefined` leaves the chunk
 * to the schema, which takes everything else and says what is wrong with a malformed one.
 */
export function readCommonChatChunk(value: unknown): OpenAIChatChunk | undefined {
  if (!isJSONObject(value) || value.usage != null || !isOptionalString(value.id) || !isOptionalString(value.model))
    return undefined;
  const choices = value.choices;
  if (choices == null) return value as OpenAIChatChunk;
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices) if (!isCommonChoice(choice)) return undefined;
  return value as OpenAIChatChunk;
}

function isCommonChoice(choice: unknown): boolean {
  if (!isJSONObject(choice) || !isOptionalNumber(choice.index) || !isOptionalString(choice.finish_reason)) return false;
  const delta = choice.delta;
  if (delta == null) return true;
  return (
    isJSONObject(delta) &&
    delta.tool_calls == null &&
    isOptionalString(delta.content) &&
    isOptionalString(delta.reasoning_content) &&
    isOptionalString(delta.reasoning) &&
    isOptionalString(delta.refusal)
  );
}

const isOptionalString = (value: unknown): boolean => value == null || typeof value === 'string';
const isOptionalNumber = (value: unknown): boolean => value == null || typeof value === 'number';
