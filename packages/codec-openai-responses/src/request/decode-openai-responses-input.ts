import { flattenNamespacedToolName } from '../tools/namespaced-tool-names';
import { unpackCarriedReasoning } from '../reasoning/carried-reasoning';
import {
  assertNever,
  invalidParameter,
  isJSONObject,
  unsupportedParameter,
  type AssistantMessage,
  type Message,
  type ToolResultPart,
  type TranslationWarning,
  quoteClientName,
} from '@signalbox/core';
import { decodeAssistantPart, decodeSystemPart, decodeUserPart } from './decode-openai-responses-content';
import {
  contentPartSchema,
  functionCallItemSchema,
  functionCallOutputItemSchema,
  messageItemSchema,
  reasoningItemSchema,
  toolOutputPartSchema,
  type OpenAIResponsesContentPart,
} from './openai-responses-request-schema';
import { parseAt } from './parse-at';

type Path = readonly PropertyKey[];
type Context = { messages: Message[]; warnings: TranslationWarning[]; responsesOnlyItems: string[] };

/**
 * Items of built-in and custom tools (`web_search_call`, `mcp_call`, …) a client replays after a
 * Responses upstream ran them: they have no IR form, so only that upstream can take them.
 */
const RESPONSES_ONLY_ITEM_TYPES: ReadonlySet<string> = new Set([
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'custom_tool_call',
  'custom_tool_call_output',
  'tool_search_call',
  'tool_search_output',
]);

/**
 * `input` → IR messages, in order. A string is one user message. Consecutive assistant output
 * (messages, `function_call`, `reasoning`) merges into one assistant message and consecutive
 * `function_call_output`s into one tool message; system/developer items stay in place. The types
 * of built-in tool items, which have no IR form, are listed in `responsesOnlyItems`.
 */
export function decodeOpenAIResponsesInput(
  input: string | readonly unknown[],
  warnings: TranslationWarning[],
  responsesOnlyItems: string[] = [],
): Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: [{ type: 'text', text: input }] }];
  const context: Context = { messages: [], warnings, responsesOnlyItems };
  input.forEach((item, index) => decodeInputItem(item, ['input', index], context));
  return context.messages;
}

function decodeInputItem(item: unknown, path: Path, context: Context): void {
  if (!isJSONObject(item)) throw invalidParameter(path, 'Expected an input item object');
  const type = item.type;
  if (type === 'item_reference' || (type === undefined && item.role === undefined && item.id !== undefined)) {
    throw unsupportedParameter(
      path,
      'an `item_reference` is resolved by the gateway before the body is decoded; send it to a gateway with a response store, or send the item itself',
    );
  }
  if (type === undefined || type === 'message') return decodeMessageItem(item, path, context);
  if (type === 'function_call') {
    const call = parseAt(functionCallItemSchema, item, path);
    return appendAssistantParts(context, [
      {
        type: 'tool-call',
        callId: call.call_id,
        name: call.namespace ? flattenNamespacedToolName(call.namespace, call.name) : call.name,
        arguments: call.arguments,
      },
    ]);
  }
  if (type === 'function_call_output') return decodeFunctionCallOutput(item, path, context);
  if (type === 'reasoning') {
    const reasoning = parseAt(reasoningItemSchema, item, path);
    const texts = [...(reasoning.summary ?? []), ...(reasoning.content ?? [])].map(entry => entry.text);
    const carried = reasoning.encrypted_content ? unpackCarriedReasoning(reasoning.encrypted_content) : undefined;
    if (carried) return appendAssistantParts(context, [carried]);
    const part: AssistantMessage['content'][number] = { type: 'reasoning', text: texts.join('\n\n') };
    if (reasoning.encrypted_content) part.encryptedContent = reasoning.encrypted_content;
    return appendAssistantParts(context, [part]);
  }
  if (typeof type === 'string' && RESPONSES_ONLY_ITEM_TYPES.has(type)) {
    context.responsesOnlyItems.push(type);
    return;
  }
  if (typeof type === 'string') {
    throw unsupportedParameter(
      [...path, 'type'],
      `input items of type ${quoteClientName(type, '(not a type name)')} are not supported by this gateway (only messages, function_call, function_call_output and reasoning)`,
    );
  }
  throw invalidParameter([...path, 'type'], 'Expected a string');
}

function decodeMessageItem(item: unknown, path: Path, context: Context): void {
  const message = parseAt(messageItemSchema, item, path);
  const contentPath = [...path, 'content'];
  const { content } = message;
  const each = <Part>(decode: (part: OpenAIResponsesContentPart, partPath: Path) => Part): Part[] =>
    typeof content === 'string'
      ? [decode({ type: 'input_text', text: content }, contentPath)]
      : content.map((part, index) =>
          decode(parseAt(contentPartSchema, part, [...contentPath, index]), [...contentPath, index]),
        );
  switch (message.role) {
    case 'user':
      context.messages.push({ role: 'user', content: each(decodeUserPart) });
      return;
    case 'system':
    case 'developer':
      context.messages.push({ role: 'system', content: each(decodeSystemPart) });
      return;
    case 'assistant':
      appendAssistantParts(
        context,
        each((part, partPath) => decodeAssistantPart(part, partPath, context.warnings)),
      );
      return;
    default:
      return assertNever(message.role, 'Responses message role');
  }
}

function decodeFunctionCallOutput(item: unknown, path: Path, context: Context): void {
  const output = parseAt(functionCallOutputItemSchema, item, path);
  const result: ToolResultPart = {
    type: 'tool-result',
    callId: output.call_id,
    content:
      typeof output.output === 'string'
        ? [{ type: 'text', text: output.output }]
        : output.output.map((part, index) => {
            const partPath = [...path, 'output', index];
            return decodeUserPart(parseAt(toolOutputPartSchema, part, partPath), partPath);
          }),
  };
  const last = context.messages.at(-1);
  if (last?.role === 'tool') last.content.push(result);
  else context.messages.push({ role: 'tool', content: [result] });
}

function appendAssistantParts(context: Context, parts: AssistantMessage['content']): void {
  const last = context.messages.at(-1);
  if (last?.role === 'assistant') last.content.push(...parts);
  else context.messages.push({ role: 'assistant', content: parts });
}
