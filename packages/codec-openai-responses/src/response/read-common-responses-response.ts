import { isJSONObject, isNullishString } from '@signalbox/core';
import type { z } from 'zod';
import type { messageOutputItemSchema, openAIResponsesResponseSchema } from './openai-responses-response-schema';

type ResponsesResponse = z.infer<typeof openAIResponsesResponseSchema>;
type MessageOutputItem = z.infer<typeof messageOutputItemSchema>;

/**
 * The Response nearly every upstream sends (no error; items with a type), checked field by field
 * and copied with only the fields the schema keeps, without the schema's walk; `undefined` leaves
 * the body to the schema, which takes everything else and names what is wrong.
 */
export function readCommonResponsesResponse(value: unknown): ResponsesResponse | undefined {
  if (
    !isJSONObject(value) ||
    typeof value.id !== 'string' ||
    !isNullishString(value.model) ||
    !isNullishString(value.status) ||
    value.error != null ||
    !isIncompleteDetails(value.incomplete_details) ||
    !Array.isArray(value.output)
  )
    return undefined;
  for (const item of value.output) if (!isJSONObject(item) || typeof item.type !== 'string') return undefined;
  return {
    id: value.id,
    model: value.model as string | null | undefined,
    status: value.status as string | null | undefined,
    output: value.output as ResponsesResponse['output'],
    error: value.error,
    incomplete_details: value.incomplete_details as ResponsesResponse['incomplete_details'],
    usage: value.usage,
  };
}

/** A `message` output item as the schema leaves it (its `content` alone), when each part checks; else `undefined`. */
export function readCommonMessageItem(item: { [key: string]: unknown }): MessageOutputItem | undefined {
  const content = item.content;
  if (content == null) return { content };
  if (!Array.isArray(content)) return undefined;
  for (const part of content) {
    if (!isJSONObject(part) || typeof part.type !== 'string' || !isNullishString(part.text) || !isNullishString(part.refusal))
      return undefined;
  }
  return { content: content as NonNullable<MessageOutputItem['content']> };
}

function isIncompleteDetails(value: unknown): boolean {
  return value == null || (isJSONObject(value) && isNullishString(value.reason));
}
