import { isJSONObject, type JSONObject } from '@signalbox/core';
import type { MessagesBlock, MessagesStreamState } from './messages-stream-state';
import { reportViolation } from './report-violation';
import { formatValue, isInteger, isNonEmptyString, parseJSONObject } from './value-guards';

/** Block types of the SDK's `ContentBlock` union and the delta types each may receive. */
const DELTA_TYPES_BY_BLOCK: Readonly<Record<string, readonly string[]>> = {
  text: ['text_delta', 'citations_delta'],
  thinking: ['thinking_delta', 'signature_delta'],
  redacted_thinking: [],
  tool_use: ['input_json_delta'],
  server_tool_use: ['input_json_delta'],
  web_search_tool_result: [],
  web_fetch_tool_result: [],
  code_execution_tool_result: [],
  bash_code_execution_tool_result: [],
  text_editor_code_execution_tool_result: [],
  tool_search_tool_result: [],
  container_upload: [],
};

/** `content_block_start`: indices contiguous from 0, one block open at a time, a known initial block. */
export function handleBlockStart(state: MessagesStreamState, data: JSONObject): void {
  const index = data.index;
  const block = data.content_block;
  if (state.messageDeltaCount > 0) reportViolation(state, 'content_block_start after message_delta');
  if (state.openBlock) {
    reportViolation(state, `block ${state.openBlock.index} is still open (blocks stream one at a time)`);
  }
  if (!isInteger(index)) {
    reportViolation(state, `index must be an integer, got ${formatValue(index)}`);
    return;
  }
  if (index !== state.blocks.length) {
    reportViolation(state, `block index ${index}, expected ${state.blocks.length} (contiguous from 0)`);
  }
  if (!isJSONObject(block) || typeof block.type !== 'string' || !(block.type in DELTA_TYPES_BY_BLOCK)) {
    reportViolation(state, `content_block must be a known block, got ${formatValue(block)}`);
    return;
  }
  checkInitialBlock(state, block);
  const started: MessagesBlock = {
    index,
    type: block.type,
    stopped: false,
    partialJSON: '',
    signatureSeen: false,
  };
  state.blocks.push(started);
  state.openBlock = started;
}

function checkInitialBlock(state: MessagesStreamState, block: JSONObject): void {
  if (block.type === 'text' && block.text !== '') {
    reportViolation(state, `a text block starts with text "", got ${formatValue(block.text)}`);
  }
  if (block.type === 'thinking' && block.thinking !== '') {
    reportViolation(state, `a thinking block starts with thinking "", got ${formatValue(block.thinking)}`);
  }
  if (block.type === 'redacted_thinking' && typeof block.data !== 'string') {
    reportViolation(state, `a redacted_thinking block needs string data, got ${formatValue(block.data)}`);
  }
  if (block.type === 'tool_use' || block.type === 'server_tool_use') {
    if (!isNonEmptyString(block.id)) {
      reportViolation(state, `${block.type} block needs a non-empty id, got ${formatValue(block.id)}`);
    }
    if (!isNonEmptyString(block.name)) {
      reportViolation(state, `${block.type} block needs a name, got ${formatValue(block.name)}`);
    }
    if (!isJSONObject(block.input)) {
      reportViolation(state, `${block.type} block input must be an object, got ${formatValue(block.input)}`);
    }
  }
}

/** `content_block_delta`: on the open block, a delta type that fits the block type. */
export function handleBlockDelta(state: MessagesStreamState, data: JSONObject): void {
  const block = resolveOpenBlock(state, data.index, 'content_block_delta');
  const delta = data.delta;
  if (!block) return;
  if (!isJSONObject(delta) || typeof delta.type !== 'string') {
    reportViolation(state, `delta must be an object with a type, got ${formatValue(delta)}`);
    return;
  }
  if (!(DELTA_TYPES_BY_BLOCK[block.type] ?? []).includes(delta.type)) {
    reportViolation(state, `${delta.type} on a ${block.type} block (index ${block.index})`);
    return;
  }
  applyDelta(state, block, delta);
}

function applyDelta(state: MessagesStreamState, block: MessagesBlock, delta: JSONObject): void {
  const fields: Readonly<Record<string, string>> = {
    text_delta: 'text',
    input_json_delta: 'partial_json',
    thinking_delta: 'thinking',
    signature_delta: 'signature',
  };
  const field = typeof delta.type === 'string' ? fields[delta.type] : undefined;
  if (field === undefined) return;
  const value = delta[field];
  if (typeof value !== 'string') {
    reportViolation(state, `delta.${field} must be a string, got ${formatValue(value)}`);
    return;
  }
  if (block.signatureSeen) {
    reportViolation(state, `${String(delta.type)} after the signature_delta of block ${block.index}`);
  }
  if (delta.type === 'text_delta') state.text += value;
  if (delta.type === 'input_json_delta') block.partialJSON += value;
  if (delta.type === 'signature_delta') block.signatureSeen = true;
}

/** `content_block_stop`: closes the open block once; a tool block's streamed JSON must parse to an object. */
export function handleBlockStop(state: MessagesStreamState, data: JSONObject): void {
  const block = resolveOpenBlock(state, data.index, 'content_block_stop');
  if (!block) return;
  block.stopped = true;
  state.openBlock = undefined;
  if (block.partialJSON !== '' && !parseJSONObject(block.partialJSON)) {
    reportViolation(
      state,
      `partial_json of block ${block.index} does not form a JSON object: ${formatValue(block.partialJSON)}`,
    );
  }
}

function resolveOpenBlock(
  state: MessagesStreamState,
  index: unknown,
  type: string,
): MessagesBlock | undefined {
  const block = state.blocks.find(candidate => candidate.index === index);
  if (!block) {
    reportViolation(state, `${type} for block index ${formatValue(index)}, which was never started`);
    return undefined;
  }
  if (block.stopped) {
    reportViolation(state, `${type} for block ${block.index}, which is already stopped`);
    return undefined;
  }
  if (state.openBlock !== block) {
    reportViolation(state, `${type} for block ${block.index} while block ${state.openBlock?.index} is open`);
  }
  return block;
}
