import { isJSONObject, type JSONObject } from '@signalbox/core';
import { reportViolation } from './report-violation';
import type { ResponsesItem, ResponsesStreamState } from './responses-stream-state';
import { formatValue, isInteger, isNonEmptyString } from './value-guards';

/**
 * Finds the item an item-scoped event targets by `output_index` and checks, like the SDK, that
 * `item_id` equals the item's id, the item type fits the event and the item is still open.
 */
export function resolveResponsesItem(
  state: ResponsesStreamState,
  data: JSONObject,
  expectedType: string | undefined,
  checkItemId = true,
): ResponsesItem | undefined {
  const outputIndex = data.output_index;
  if (!isInteger(outputIndex)) {
    reportViolation(state, `output_index must be an integer, got ${formatValue(outputIndex)}`);
    return undefined;
  }
  const item = state.items.find(candidate => candidate.outputIndex === outputIndex);
  if (!item) {
    reportViolation(state, `output_index ${outputIndex} does not refer to an added output item`);
    return undefined;
  }
  if (checkItemId && data.item_id !== item.id) {
    reportViolation(state, `item_id ${formatValue(data.item_id)} does not match the item's id "${item.id}"`);
  }
  if (expectedType !== undefined && item.type !== expectedType) {
    reportViolation(
      state,
      `targets a ${item.type} item at output_index ${outputIndex}; needs a ${expectedType}`,
    );
  }
  if (item.done) {
    reportViolation(state, `item at output_index ${outputIndex} was already closed by output_item.done`);
  }
  return item;
}

/** `response.output_item.added`: append-only contiguous `output_index`, unique non-empty ids, a fresh item. */
export function handleOutputItemAdded(state: ResponsesStreamState, data: JSONObject): void {
  const outputIndex = data.output_index;
  const item = data.item;
  if (!isInteger(outputIndex)) {
    reportViolation(state, `output_index must be an integer, got ${formatValue(outputIndex)}`);
    return;
  }
  if (outputIndex !== state.items.length) {
    reportViolation(state, `output_index ${outputIndex}, expected ${state.items.length} (contiguous from 0)`);
  }
  if (!isJSONObject(item) || !isNonEmptyString(item.type)) {
    reportViolation(state, `item must be an object with a type, got ${formatValue(item)}`);
    return;
  }
  if (!isNonEmptyString(item.id)) {
    reportViolation(state, `item.id must be a non-empty string, got ${formatValue(item.id)}`);
  } else if (state.items.some(existing => existing.id === item.id)) {
    reportViolation(state, `duplicate item id "${item.id}"`);
  }
  checkFreshItemShape(state, item);
  state.items.push({
    outputIndex,
    id: typeof item.id === 'string' ? item.id : '',
    type: item.type,
    callId: typeof item.call_id === 'string' ? item.call_id : undefined,
    done: false,
    parts: [],
    summaries: [],
    argumentsText: typeof item.arguments === 'string' ? item.arguments : '',
    argumentDeltaCount: 0,
    argumentsDone: false,
  });
}

function checkFreshItemShape(state: ResponsesStreamState, item: JSONObject): void {
  if (item.type === 'function_call') {
    if (!isNonEmptyString(item.call_id)) {
      reportViolation(state, `function_call item needs a string call_id, got ${formatValue(item.call_id)}`);
    }
    if (!isNonEmptyString(item.name)) {
      reportViolation(state, `function_call item needs a name, got ${formatValue(item.name)}`);
    }
    if (typeof item.arguments !== 'string') {
      reportViolation(state, `function_call item needs string arguments, got ${formatValue(item.arguments)}`);
    }
  }
  if (item.type === 'message') {
    if (item.role !== 'assistant') {
      reportViolation(state, `message item role must be "assistant", got ${formatValue(item.role)}`);
    }
    if (!Array.isArray(item.content) || item.content.length > 0) {
      reportViolation(state, `a new message item must have content [], got ${formatValue(item.content)}`);
    }
  }
  if (item.type === 'reasoning' && (!Array.isArray(item.summary) || item.summary.length > 0)) {
    reportViolation(state, `a new reasoning item must have summary [], got ${formatValue(item.summary)}`);
  }
}

/** `response.output_item.done`: same identity as added, a final status, and every part/summary/arguments closed. */
export function handleOutputItemDone(state: ResponsesStreamState, data: JSONObject): void {
  const item = resolveResponsesItem(state, data, undefined, false);
  const final = data.item;
  if (!item) return;
  if (!isJSONObject(final)) {
    reportViolation(state, `item must be an object, got ${formatValue(final)}`);
  } else {
    checkSameIdentity(state, item, final, 'output_item.done item');
    // `status` is required on message and function_call items, optional on reasoning items (SDK types).
    const statusOptional = item.type === 'reasoning' && final.status === undefined;
    if (!statusOptional && final.status !== 'completed' && final.status !== 'incomplete') {
      reportViolation(
        state,
        `final item status must be "completed" or "incomplete", got ${formatValue(final.status)}`,
      );
    }
    checkFinalContent(state, item, final);
  }
  checkItemChildrenClosed(state, item);
  item.done = true;
}

/** The final item must carry what was streamed: the arguments of a call, the part texts of a message. */
function checkFinalContent(state: ResponsesStreamState, item: ResponsesItem, final: JSONObject): void {
  if (item.type === 'function_call' && final.arguments !== item.argumentsText) {
    reportViolation(
      state,
      `final arguments ${formatValue(final.arguments)} differ from the streamed ${formatValue(item.argumentsText)}`,
    );
  }
  if (item.type !== 'message') return;
  const content = Array.isArray(final.content) ? final.content : [];
  if (content.length !== item.parts.length) {
    reportViolation(
      state,
      `final message has ${content.length} content parts, ${item.parts.length} were streamed`,
    );
  }
  item.parts.forEach((part, position) => {
    const finalPart = content[position];
    const streamed = part.type === 'refusal' ? 'refusal' : 'text';
    if (isJSONObject(finalPart) && (finalPart.type !== part.type || finalPart[streamed] !== part.text)) {
      reportViolation(
        state,
        `final content[${position}] ${formatValue(finalPart)} differs from the streamed ${part.type}`,
      );
    }
  });
}

/** Compares a final item (from output_item.done or the terminal response) with the streamed identity. */
export function checkSameIdentity(
  state: ResponsesStreamState,
  item: ResponsesItem,
  final: JSONObject,
  where: string,
): void {
  if (final.type !== item.type || final.id !== item.id) {
    reportViolation(
      state,
      `${where} is ${formatValue(final.type)} ${formatValue(final.id)}, streamed ${item.type} "${item.id}"`,
    );
  }
  if (item.type === 'function_call' && final.call_id !== item.callId) {
    reportViolation(
      state,
      `${where} call_id ${formatValue(final.call_id)} differs from the streamed "${item.callId}"`,
    );
  }
}

function checkItemChildrenClosed(state: ResponsesStreamState, item: ResponsesItem): void {
  for (const part of item.parts) {
    if (!part.done) {
      reportViolation(
        state,
        `content part ${part.contentIndex} of item "${item.id}" was never closed by content_part.done`,
      );
    }
  }
  for (const summary of item.summaries) {
    if (!summary.done) {
      reportViolation(
        state,
        `summary part ${summary.summaryIndex} of item "${item.id}" was never closed by reasoning_summary_part.done`,
      );
    }
  }
  if (item.type === 'function_call' && !item.argumentsDone) {
    reportViolation(state, `function_call item "${item.id}" closed without function_call_arguments.done`);
  }
}

/** `function_call_arguments.delta`: appended to an open function_call item. */
export function handleArgumentsDelta(state: ResponsesStreamState, data: JSONObject): void {
  const item = resolveResponsesItem(state, data, 'function_call');
  if (!item) return;
  if (item.argumentsDone) reportViolation(state, 'arguments delta after function_call_arguments.done');
  if (typeof data.delta !== 'string') {
    reportViolation(state, `delta must be a string, got ${formatValue(data.delta)}`);
    return;
  }
  item.argumentsText += data.delta;
  item.argumentDeltaCount += 1;
}

/** `function_call_arguments.done`: once, and equal to the concatenated deltas when deltas were sent. */
export function handleArgumentsDone(state: ResponsesStreamState, data: JSONObject): void {
  const item = resolveResponsesItem(state, data, 'function_call');
  if (!item) return;
  if (item.argumentsDone) reportViolation(state, 'second function_call_arguments.done for the same item');
  if (typeof data.arguments !== 'string') {
    reportViolation(state, `arguments must be a string, got ${formatValue(data.arguments)}`);
    return;
  }
  if (item.argumentDeltaCount > 0 && data.arguments !== item.argumentsText) {
    reportViolation(
      state,
      `arguments ${formatValue(data.arguments)} differ from the concatenated deltas ${formatValue(item.argumentsText)}`,
    );
  }
  item.argumentsText = data.arguments;
  item.argumentsDone = true;
}

/** Pass-through tool-family events: only the SDK's item identity and type check applies. */
export function handlePassThroughItemEvent(
  state: ResponsesStreamState,
  data: JSONObject,
  expectedType: string,
): void {
  resolveResponsesItem(state, data, expectedType);
}
