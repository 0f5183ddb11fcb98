import { withEncodedCacheControl } from '../cache/anthropic-cache-control';
import { toAnthropicToolId } from './to-anthropic-tool-id';
import {
  assertNever,
  type AssistantMessage,
  type GenerationRequest,
  type JSONObject,
  type TextPart,
  type TranslationWarning,
  type UserMessage,
} from '@signalbox/core';
import {
  encodeAnthropicDocument,
  encodeAnthropicImage,
  encodeAnthropicToolInput,
  encodeAnthropicToolResult,
} from './encode-anthropic-content';

type Turn = { role: 'user' | 'assistant'; content: JSONObject[] };

/** The parts of a Messages body that come from the conversation. */
export type EncodedAnthropicConversation = { system: JSONObject[]; messages: JSONObject[] };

/**
 * IR conversation → Messages `system` + `messages`. System messages are hoisted (in order), tool
 * results open the next user turn, same-role turns merge, and empty blocks and turns are dropped,
 * because the API rejects empty text and `tool_use` ids without results right after them.
 */
export function encodeAnthropicTurns(
  request: GenerationRequest,
  warnings: TranslationWarning[],
): EncodedAnthropicConversation {
  const system = textBlocks(request.system);
  const turns: Turn[] = [];
  const dropped = { reasoning: 0 };
  request.messages.forEach((message, index) => {
    const path = `messages.${index}`;
    switch (message.role) {
      case 'system':
        return void system.push(...textBlocks(message.content));
      case 'user':
        return appendTurn(turns, 'user', encodeUserContent(message.content, path));
      case 'assistant':
        return appendTurn(turns, 'assistant', encodeAssistantContent(message.content, path, dropped));
      case 'tool':
        return appendTurn(
          turns,
          'user',
          message.content.map((part, partIndex) =>
            encodeAnthropicToolResult(part, `${path}.content.${partIndex}`),
          ),
        );
      default:
        return assertNever(message, 'IR message');
    }
  });
  if (dropped.reasoning > 0) {
    warnings.push({
      type: 'lossy-conversion',
      field: 'messages',
      details: `${dropped.reasoning} reasoning part(s) without an Anthropic signature were dropped (Anthropic rejects unsigned thinking).`,
    });
  }
  return { system, messages: turns.map(toolResultsFirst) };
}

function textBlocks(parts: readonly TextPart[]): JSONObject[] {
  return parts.filter(part => part.text !== '').map(part => withEncodedCacheControl({ type: 'text', text: part.text }, part));
}

function appendTurn(turns: Turn[], role: Turn['role'], blocks: JSONObject[]): void {
  if (blocks.length === 0) return;
  const last = turns.at(-1);
  if (last?.role === role) last.content.push(...blocks);
  else turns.push({ role, content: blocks });
}

function encodeUserContent(content: UserMessage['content'], path: string): JSONObject[] {
  const blocks: JSONObject[] = [];
  content.forEach((part, index) => {
    const partPath = `${path}.content.${index}`;
    switch (part.type) {
      case 'text':
        if (part.text !== '') blocks.push(withEncodedCacheControl({ type: 'text', text: part.text }, part));
        return;
      case 'image':
        return void blocks.push(encodeAnthropicImage(part, partPath));
      case 'file':
        return void blocks.push(encodeAnthropicDocument(part, partPath));
      default:
        return assertNever(part, 'IR user part');
    }
  });
  return blocks;
}

function encodeAssistantContent(
  content: AssistantMessage['content'],
  path: string,
  dropped: { reasoning: number },
): JSONObject[] {
  const blocks: JSONObject[] = [];
  content.forEach((part, index) => {
    switch (part.type) {
      case 'text':
        if (part.text !== '') blocks.push(withEncodedCacheControl({ type: 'text', text: part.text }, part));
        return;
      case 'refusal':
        if (part.text !== '') blocks.push({ type: 'text', text: part.text });
        return;
      case 'reasoning':
        // Only Anthropic-issued signatures replay; anything else would be a 400 "Invalid signature".
        if (part.signature) blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
        else if (part.redactedData) blocks.push({ type: 'redacted_thinking', data: part.redactedData });
        else dropped.reasoning++;
        return;
      case 'tool-call':
        blocks.push(
          withEncodedCacheControl(
            {
              type: 'tool_use',
              id: toAnthropicToolId(part.callId),
              name: part.name,
              input: encodeAnthropicToolInput(part.arguments, `${path}.content.${index}`),
            },
            part,
          ),
        );
        return;
      default:
        return assertNever(part, 'IR assistant part');
    }
  });
  return blocks;
}

// Messages wants a user turn's tool_result blocks before its other content.
function toolResultsFirst(turn: Turn): JSONObject {
  if (turn.role === 'assistant') return { role: turn.role, content: turn.content };
  const results = turn.content.filter(block => block.type === 'tool_result');
  if (results.length === 0) return { role: turn.role, content: turn.content };
  return {
    role: turn.role,
    content: [...results, ...turn.content.filter(block => block.type !== 'tool_result')],
  };
}
