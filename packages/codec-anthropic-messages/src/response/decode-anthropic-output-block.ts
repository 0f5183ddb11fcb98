import { assertNever, GatewayError, type OutputPart } from '@signalbox/core';
import {
  ANTHROPIC_OUTPUT_BLOCK_TYPES,
  anthropicOutputBlockSchema,
  type AnthropicOutputBlock,
} from '../schema/anthropic-response-schema';
import { readCommonAnthropicOutputBlock } from './read-common-anthropic-response';

/**
 * One upstream output block → an IR part; `undefined` for block types the IR has no slot for
 * (server-tool blocks, future types). A known block with a wrong shape is a malformed answer.
 */
export function decodeAnthropicOutputBlock(block: { type: string; [key: string]: unknown }): OutputPart | undefined {
  if (!ANTHROPIC_OUTPUT_BLOCK_TYPES.has(block.type)) return undefined;
  const parsed = readCommonAnthropicOutputBlock(block) ?? anthropicOutputBlockSchema.safeParse(block).data;
  if (parsed === undefined) {
    throw new GatewayError({
      code: 'UPSTREAM_FAILED',
      message: `The upstream answered with a malformed '${block.type}' block.`,
    });
  }
  return decodeAnthropicAssistantBlock(parsed);
}

/** The assistant-side blocks the IR carries, as they appear in answers and in replayed history. */
type AssistantBlock =
  | AnthropicOutputBlock
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

/** One assistant block → its IR part; an empty signature means none (never replayed as signed). */
export function decodeAnthropicAssistantBlock(block: AssistantBlock): OutputPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return {
        type: 'reasoning',
        text: block.thinking,
        ...(block.signature ? { signature: block.signature } : {}),
      };
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redactedData: block.data };
    case 'tool_use':
      return {
        type: 'tool-call',
        callId: block.id,
        name: block.name,
        arguments: JSON.stringify(block.input ?? {}),
      };
    default:
      return assertNever(block, 'Anthropic output block');
  }
}
