import { isJSONObject, isNullishString } from '@signalbox/core';
import type { z } from 'zod';
import type { AnthropicOutputBlock, anthropicResponseSchema } from '../schema/anthropic-response-schema';
import { readAnthropicUsage } from '../usage/read-anthropic-usage';

type AnthropicResponse = z.infer<typeof anthropicResponseSchema>;
type ContentBlock = AnthropicResponse['content'][number];

/**
 * An upstream Message checked field by field and copied with the fields the schema keeps, without
 * the schema's walk; `undefined` leaves the body to the schema, which says what is wrong.
 */
export function readCommonAnthropicResponse(value: unknown): AnthropicResponse | undefined {
  if (
    !isJSONObject(value) ||
    typeof value.id !== 'string' ||
    (value.type !== undefined && value.type !== 'message') ||
    !isNullishString(value.model) ||
    !isNullishString(value.stop_reason) ||
    !isNullishString(value.stop_sequence) ||
    !Array.isArray(value.content)
  )
    return undefined;
  for (const block of value.content) if (!isJSONObject(block) || typeof block.type !== 'string') return undefined;
  const usage = readAnthropicUsage(value.usage);
  if (usage === false) return undefined;
  return {
    id: value.id,
    type: value.type,
    model: value.model,
    content: value.content as ContentBlock[],
    stop_reason: value.stop_reason,
    stop_sequence: value.stop_sequence,
    usage,
  };
}

/** A text or thinking block as `anthropicOutputBlockSchema` leaves it; `undefined` leaves any other to the schema. */
export function readCommonAnthropicOutputBlock(block: ContentBlock): AnthropicOutputBlock | undefined {
  if (block.type === 'text') return typeof block.text === 'string' ? { type: 'text', text: block.text } : undefined;
  if (block.type !== 'thinking' || typeof block.thinking !== 'string' || !isNullishString(block.signature)) return undefined;
  return { type: 'thinking', thinking: block.thinking, signature: block.signature };
}
