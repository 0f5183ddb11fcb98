import { restoreNamespacedToolName } from '../tools/namespaced-tool-names';
import { createId, type JSONObject } from '@signalbox/core';
import {
  createFunctionCallItem,
  createMessageItem,
  createOutputTextPart,
  createReasoningItem,
  createRefusalPart,
  type ItemStatus,
} from '../response/openai-responses-output-items';
import {
  emit,
  type EncoderState,
  type OpenBlock,
  type OpenMessageItem,
} from './openai-responses-encoder-state';

type PartBlock = Extract<OpenBlock, { kind: 'text' | 'refusal' }>;
type ToolBlock = Extract<OpenBlock, { kind: 'tool-call' }>;
type ReasoningBlock = Extract<OpenBlock, { kind: 'reasoning' }>;

/** Opens a text or refusal part, in the open message item or in a new one at the next `output_index`. */
export function openPart(state: EncoderState, blockId: string, kind: 'text' | 'refusal'): PartBlock {
  const message = state.message ?? openMessageItem(state);
  const contentIndex = message.content.length;
  const part = kind === 'text' ? createOutputTextPart('') : createRefusalPart('');
  message.content.push(part);
  emit(state, 'response.content_part.added', {
    item_id: message.id,
    output_index: message.outputIndex,
    content_index: contentIndex,
    part,
  });
  const block: PartBlock = { kind, message, contentIndex, text: '' };
  state.blocks.set(blockId, block);
  return block;
}

/** One `output_text.delta` (with `logprobs: []`) or `refusal.delta`. */
export function appendPart(state: EncoderState, block: PartBlock, delta: string): void {
  block.text += delta;
  const { message, contentIndex } = block;
  const location = { item_id: message.id, output_index: message.outputIndex, content_index: contentIndex };
  if (block.kind === 'text') emit(state, 'response.output_text.delta', { ...location, delta, logprobs: [] });
  else emit(state, 'response.refusal.delta', { ...location, delta });
}

/** `.done` with the full text, then `content_part.done`; the message item stays open for more parts. */
export function closePart(state: EncoderState, blockId: string, block: PartBlock): void {
  const { message, contentIndex, text } = block;
  const location = { item_id: message.id, output_index: message.outputIndex, content_index: contentIndex };
  const part = finalPart(block);
  if (block.kind === 'text') emit(state, 'response.output_text.done', { ...location, text, logprobs: [] });
  else emit(state, 'response.refusal.done', { ...location, refusal: text });
  emit(state, 'response.content_part.done', { ...location, part });
  message.content[contentIndex] = part;
  state.blocks.delete(blockId);
}

function openMessageItem(state: EncoderState): OpenMessageItem {
  const message: OpenMessageItem = { id: createId('msg_'), outputIndex: state.output.length, content: [] };
  const item = createMessageItem(message.id, 'in_progress', []);
  emit(state, 'response.output_item.added', { output_index: message.outputIndex, item });
  state.output.push(item);
  state.message = message;
  return message;
}

/** Closes the open message item (and any part still open in it); other item types never share it. */
export function closeMessageItem(state: EncoderState, status: ItemStatus): void {
  const message = state.message;
  if (message === undefined) return;
  for (const [blockId, block] of state.blocks) {
    if ((block.kind === 'text' || block.kind === 'refusal') && block.message === message)
      closePart(state, blockId, block);
  }
  const item = createMessageItem(message.id, status, message.content);
  emit(state, 'response.output_item.done', { output_index: message.outputIndex, item });
  state.output[message.outputIndex] = item;
  state.message = undefined;
}

/** A `function_call` item (`fc_…`, `arguments: ''`) at the next `output_index`, after closing any message item. */
export function openToolCall(state: EncoderState, blockId: string, callId: string, name: string): void {
  closeMessageItem(state, 'completed');
  const block: ToolBlock = {
    kind: 'tool-call',
    id: createId('fc_'),
    outputIndex: state.output.length,
    callId,
    ...restoreNamespacedToolName(name, state.tools),
    arguments: '',
    hasDelta: false,
  };
  const item = createFunctionCallItem(block.id, block, 'in_progress');
  emit(state, 'response.output_item.added', { output_index: block.outputIndex, item });
  state.output.push(item);
  state.blocks.set(blockId, block);
}

/** One `function_call_arguments.delta`. */
export function appendToolCall(state: EncoderState, block: ToolBlock, delta: string): void {
  block.arguments += delta;
  block.hasDelta = true;
  emit(state, 'response.function_call_arguments.delta', {
    item_id: block.id,
    output_index: block.outputIndex,
    delta,
  });
}

/**
 * Closes a function call. Arguments given at the end win over the deltas; when none were streamed
 * they go out as one delta first. No arguments at all is `{}` so clients can always parse them.
 */
export function closeToolCall(
  state: EncoderState,
  blockId: string,
  block: ToolBlock,
  finalArguments: string | undefined,
): void {
  const argumentsText = (finalArguments ?? block.arguments) || '{}';
  if (!block.hasDelta) appendToolCall(state, block, argumentsText);
  block.arguments = argumentsText;
  emit(state, 'response.function_call_arguments.done', {
    item_id: block.id,
    output_index: block.outputIndex,
    arguments: argumentsText,
  });
  const item = createFunctionCallItem(block.id, block, 'completed');
  emit(state, 'response.output_item.done', { output_index: block.outputIndex, item });
  state.output[block.outputIndex] = item;
  state.blocks.delete(blockId);
}

/** A `reasoning` item (`rs_…`, `summary: []`) at the next `output_index`, after closing any message item. */
export function openReasoning(state: EncoderState, blockId: string, redactedData?: string): void {
  closeMessageItem(state, 'completed');
  const block: ReasoningBlock = {
    kind: 'reasoning',
    id: createId('rs_'),
    outputIndex: state.output.length,
    text: '',
    summaryOpen: false,
    ...(redactedData !== undefined && { redactedData }),
  };
  const item = createReasoningItem(block.id, '', undefined);
  emit(state, 'response.output_item.added', { output_index: block.outputIndex, item });
  state.output.push(item);
  state.blocks.set(blockId, block);
}

/** Reasoning text streams as summary part 0, opened at the first delta so silent reasoning has no empty part. */
export function appendReasoning(state: EncoderState, block: ReasoningBlock, delta: string): void {
  const location = { item_id: block.id, output_index: block.outputIndex, summary_index: 0 };
  if (!block.summaryOpen) {
    emit(state, 'response.reasoning_summary_part.added', {
      ...location,
      part: { type: 'summary_text', text: '' },
    });
    block.summaryOpen = true;
  }
  block.text += delta;
  emit(state, 'response.reasoning_summary_text.delta', { ...location, delta });
}

/** Closes the summary part (if any) and the item, which carries `encrypted_content` when the IR has it. */
export function closeReasoning(
  state: EncoderState,
  blockId: string,
  block: ReasoningBlock,
  encryptedContent: string | undefined,
): void {
  if (block.summaryOpen) {
    const location = { item_id: block.id, output_index: block.outputIndex, summary_index: 0 };
    emit(state, 'response.reasoning_summary_text.done', { ...location, text: block.text });
    emit(state, 'response.reasoning_summary_part.done', {
      ...location,
      part: { type: 'summary_text', text: block.text },
    });
  }
  const item = createReasoningItem(block.id, block.text, encryptedContent);
  emit(state, 'response.output_item.done', { output_index: block.outputIndex, item });
  state.output[block.outputIndex] = item;
  state.blocks.delete(blockId);
}

/** Closes every open block and the message item, so a terminal event never leaves items unfinished. */
export function closeAllItems(state: EncoderState, messageStatus: ItemStatus): void {
  for (const [blockId, block] of state.blocks) {
    if (block.kind === 'tool-call') closeToolCall(state, blockId, block, undefined);
    else if (block.kind === 'reasoning') closeReasoning(state, blockId, block, undefined);
  }
  closeMessageItem(state, messageStatus);
}

/** The output so far without emitting anything: open items in their partial form, marked `incomplete`. */
export function snapshotOutput(state: EncoderState): JSONObject[] {
  const output = [...state.output];
  const message = state.message;
  if (message !== undefined) {
    const content = [...message.content];
    for (const block of state.blocks.values()) {
      if ((block.kind === 'text' || block.kind === 'refusal') && block.message === message)
        content[block.contentIndex] = finalPart(block);
    }
    output[message.outputIndex] = createMessageItem(message.id, 'incomplete', content);
  }
  for (const block of state.blocks.values()) {
    if (block.kind === 'tool-call')
      output[block.outputIndex] = createFunctionCallItem(block.id, block, 'incomplete');
    else if (block.kind === 'reasoning')
      output[block.outputIndex] = createReasoningItem(block.id, block.text, undefined);
  }
  return output;
}

function finalPart(block: PartBlock): JSONObject {
  return block.kind === 'text' ? createOutputTextPart(block.text) : createRefusalPart(block.text);
}
