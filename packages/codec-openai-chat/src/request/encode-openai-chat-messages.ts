import {
  assertNever,
  type AssistantMessage,
  type GenerationRequest,
  type JSONObject,
  type Message,
  type TextPart,
  type ToolMessage,
  type TranslationWarning,
  type UserMessage,
} from '@signalbox/core';
import { encodeOpenAIChatUserPart } from './encode-openai-chat-user-part';
import { toOpenAIChatToolCallId } from './to-openai-chat-tool-call-id';

/**
 * IR conversation → Chat `messages`: `request.system` as one leading system message, IR system
 * messages in place, one `tool` message per tool result. Chat tool messages hold text only, so
 * images and files from tool results move to a user message right after the results (lossy, warned).
 */
export function encodeOpenAIChatMessages(
  request: GenerationRequest,
  warnings: TranslationWarning[],
): JSONObject[] {
  const messages: JSONObject[] = [];
  if (request.system.length > 0)
    messages.push({ role: 'system', content: joinTexts(request.system, '\n\n') });
  request.messages.forEach((message, index) =>
    encodeMessage(message, `messages.${index}`, messages, warnings),
  );
  return messages;
}

function encodeMessage(
  message: Message,
  path: string,
  out: JSONObject[],
  warnings: TranslationWarning[],
): void {
  switch (message.role) {
    case 'system':
      out.push({ role: 'system', content: joinTexts(message.content, '\n\n') });
      return;
    case 'user':
      out.push(encodeUserMessage(message, path, warnings));
      return;
    case 'assistant':
      out.push(encodeAssistantMessage(message, path, warnings));
      return;
    case 'tool':
      encodeToolMessage(message, path, out, warnings);
      return;
    default:
      return assertNever(message, 'IR message role');
  }
}

function encodeUserMessage(message: UserMessage, path: string, warnings: TranslationWarning[]): JSONObject {
  const [first] = message.content;
  if (message.content.length === 1 && first?.type === 'text') return { role: 'user', content: first.text };
  if (message.content.length === 0) return { role: 'user', content: '' };
  const content = message.content.map((part, index) =>
    encodeOpenAIChatUserPart(part, `${path}.content.${index}`, warnings),
  );
  return { role: 'user', content };
}

function encodeAssistantMessage(
  message: AssistantMessage,
  path: string,
  warnings: TranslationWarning[],
): JSONObject {
  let text = '';
  let refusal = '';
  const toolCalls: JSONObject[] = [];
  message.content.forEach((part, index) => {
    switch (part.type) {
      case 'text':
        text += part.text;
        return;
      case 'refusal':
        refusal += part.text;
        return;
      case 'tool-call':
        toolCalls.push({
          id: toOpenAIChatToolCallId(part.callId),
          type: 'function',
          function: { name: part.name, arguments: part.arguments || '{}' }, // IR `""` = no arguments
        });
        return;
      case 'reasoning':
        if (part.text !== '') {
          warnings.push({
            type: 'unsupported-field',
            field: `${path}.content.${index}`,
            details: 'Chat has no field for reasoning text; dropped.',
          });
        }
        return;
      default:
        return assertNever(part, 'IR assistant part');
    }
  });
  // Chat requires `content` unless tool calls are present; a refusal-only turn keeps an empty string.
  const content = text !== '' ? text : toolCalls.length > 0 ? null : '';
  return {
    role: 'assistant',
    content,
    ...(refusal !== '' && { refusal }),
    ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
  };
}

function encodeToolMessage(
  message: ToolMessage,
  path: string,
  out: JSONObject[],
  warnings: TranslationWarning[],
): void {
  const moved: JSONObject[] = [];
  message.content.forEach((result, resultIndex) => {
    const resultPath = `${path}.content.${resultIndex}`;
    const texts: TextPart[] = [];
    result.content.forEach((part, partIndex) => {
      if (part.type === 'text') texts.push(part);
      else moved.push(encodeOpenAIChatUserPart(part, `${resultPath}.content.${partIndex}`, warnings));
    });
    if (texts.length < result.content.length) {
      warnings.push({
        type: 'lossy-conversion',
        field: resultPath,
        details: 'Chat tool messages hold text only; attachments moved to a following user message.',
      });
    }
    if (result.isError) {
      warnings.push({
        type: 'lossy-conversion',
        field: `${resultPath}.isError`,
        details: "Chat has no error flag; the result text is prefixed with 'Error: '.",
      });
    }
    const content = encodeToolContent(result.isError ? prefixError(texts) : texts);
    out.push({ role: 'tool', tool_call_id: toOpenAIChatToolCallId(result.callId), content });
  });
  if (moved.length > 0) out.push({ role: 'user', content: moved });
}

/** One text goes out as a plain string; several keep their boundaries as text parts. */
function encodeToolContent(texts: readonly TextPart[]): string | JSONObject[] {
  if (texts.length <= 1) return texts[0]?.text ?? '';
  return texts.map(part => ({ type: 'text', text: part.text }));
}

function prefixError(texts: readonly TextPart[]): TextPart[] {
  const [first, ...rest] = texts;
  return [{ type: 'text', text: first ? `Error: ${first.text}` : 'Error' }, ...rest];
}

function joinTexts(parts: readonly TextPart[], separator: string): string {
  return parts.map(part => part.text).join(separator);
}
