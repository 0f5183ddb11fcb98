import {
  assertNever,
  unsupportedParameter,
  type AssistantMessage,
  type Message,
  type TextPart,
  type ToolResultPart,
  type TranslationWarning,
} from '@signalbox/core';
import { decodeOpenAIChatUserContent } from './decode-openai-chat-user-content';
import type { OpenAIChatAssistantMessage, OpenAIChatMessage } from './openai-chat-request-schema';

/**
 * A client's `messages` → IR. The leading run of `system`/`developer` messages becomes
 * `request.system`; later ones stay in place as IR system messages. Consecutive `tool` messages
 * are grouped into one IR tool message (their results, in order).
 */
export function decodeOpenAIChatMessages(
  messages: readonly OpenAIChatMessage[],
  warnings: TranslationWarning[],
): { system: TextPart[]; messages: Message[] } {
  const system: TextPart[] = [];
  const decoded: Message[] = [];
  messages.forEach((message, index) => {
    const path = `messages.${index}`;
    if ('name' in message && message.name !== undefined) {
      warnings.push({
        type: 'unsupported-field',
        field: `${path}.name`,
        details: 'Participant names are not carried.',
      });
    }
    switch (message.role) {
      case 'system':
      case 'developer':
        if (decoded.length === 0) system.push(...decodeTextContent(message.content));
        else decoded.push({ role: 'system', content: decodeTextContent(message.content) });
        return;
      case 'user':
        decoded.push({ role: 'user', content: decodeOpenAIChatUserContent(message.content, path) });
        return;
      case 'assistant':
        decoded.push(decodeAssistantMessage(message, path));
        return;
      case 'tool':
        appendToolResult(decoded, {
          type: 'tool-result',
          callId: message.tool_call_id,
          content: decodeTextContent(message.content),
        });
        return;
      case 'function':
        throw unsupportedParameter(
          `${path}.role`,
          "the legacy 'function' role is not supported; send tool results as 'tool' messages",
        );
      default:
        return assertNever(message, 'Chat message role');
    }
  });
  return { system, messages: decoded };
}

/** String or text-part content → IR text parts; empty strings carry nothing and are dropped. */
function decodeTextContent(content: string | ReadonlyArray<{ text: string }>): TextPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const parts: TextPart[] = [];
  for (const part of content) if (part.text !== '') parts.push({ type: 'text', text: part.text });
  return parts;
}

function decodeAssistantMessage(message: OpenAIChatAssistantMessage, path: string): AssistantMessage {
  refuseAssistantField(
    message.function_call,
    `${path}.function_call`,
    "legacy 'function_call' history is not supported; use 'tool_calls'",
  );
  refuseAssistantField(message.audio, `${path}.audio`, 'audio responses in the history are not supported');
  const content: AssistantMessage['content'] = [];
  const wireContent = message.content ?? '';
  if (typeof wireContent === 'string') {
    if (wireContent !== '') content.push({ type: 'text', text: wireContent });
  } else {
    for (const part of wireContent) {
      if (part.type === 'text' && part.text !== '') content.push({ type: 'text', text: part.text });
      if (part.type === 'refusal' && part.refusal !== '')
        content.push({ type: 'refusal', text: part.refusal });
    }
  }
  if (message.refusal) content.push({ type: 'refusal', text: message.refusal });
  message.tool_calls?.forEach((call, index) => {
    if (call.type !== 'function') {
      throw unsupportedParameter(
        `${path}.tool_calls.${index}`,
        'custom tool calls are not supported; only function tools are',
      );
    }
    content.push({
      type: 'tool-call',
      callId: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
    });
  });
  return { role: 'assistant', content };
}

function refuseAssistantField(value: unknown, param: string, reason: string): void {
  if (value !== undefined && value !== null) throw unsupportedParameter(param, reason);
}

function appendToolResult(messages: Message[], result: ToolResultPart): void {
  const last = messages[messages.length - 1];
  if (last?.role === 'tool') last.content.push(result);
  else messages.push({ role: 'tool', content: [result] });
}
