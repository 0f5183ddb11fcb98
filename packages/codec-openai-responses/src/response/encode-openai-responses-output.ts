import { packCarriedReasoning } from '../reasoning/carried-reasoning';
import { assertNever, createId, type JSONObject, type OutputPart, type ToolDefinition } from '@signalbox/core';
import { restoreNamespacedToolName } from '../tools/namespaced-tool-names';
import {
  createFunctionCallItem,
  createMessageItem,
  createOutputTextPart,
  createReasoningItem,
  createRefusalPart,
} from './openai-responses-output-items';

/**
 * IR output parts → Responses output items: consecutive text/refusal parts share one `message`
 * item; each tool call is a `function_call` item (under its namespace when the client declared one in `tools`), each reasoning part a `reasoning` item. When the
 * response is cut short, a trailing message item is marked `incomplete`.
 */
export function encodeOpenAIResponsesOutput(
  content: readonly OutputPart[],
  incomplete: boolean,
  tools?: readonly ToolDefinition[],
): JSONObject[] {
  const items: JSONObject[] = [];
  let message: JSONObject[] | undefined;
  const flush = () => {
    if (message) items.push(createMessageItem(createId('msg_'), 'completed', message));
    message = undefined;
  };
  for (const part of content) {
    switch (part.type) {
      case 'text':
        (message ??= []).push(createOutputTextPart(part.text));
        break;
      case 'refusal':
        (message ??= []).push(createRefusalPart(part.text));
        break;
      case 'tool-call':
        flush();
        items.push(createFunctionCallItem(createId('fc_'), { ...part, ...restoreNamespacedToolName(part.name, tools) }, 'completed'));
        break;
      case 'reasoning':
        flush();
        items.push(createReasoningItem(createId('rs_'), part.text, part.encryptedContent ?? packCarriedReasoning(part)));
        break;
      default:
        assertNever(part, 'IR output part');
    }
  }
  flush();
  const last = items.at(-1);
  if (incomplete && last?.type === 'message') last.status = 'incomplete';
  return items;
}
