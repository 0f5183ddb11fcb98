import { readTypedEvent } from './read-typed-event';
import type { JSONObject, SSEMessage } from '@signalbox/core';
import { enterEndOfStream, reportViolation } from './report-violation';
import { RESPONSES_EVENT_TYPES, RESPONSES_PASS_THROUGH_ITEM_TYPES } from './responses-event-types';
import {
  handleArgumentsDelta,
  handleArgumentsDone,
  handleOutputItemAdded,
  handleOutputItemDone,
  handlePassThroughItemEvent,
} from './responses-item-handlers';
import {
  checkLifecyclePosition,
  handleErrorEvent,
  handleLifecycleEvent,
  handleTerminalResponse,
  isLifecycleEvent,
  isTerminalResponseEvent,
} from './responses-lifecycle-handlers';
import {
  handleAnnotationAdded,
  handleContentPartAdded,
  handleContentPartDone,
  handlePartTextEvent,
  isPartTextEvent,
} from './responses-part-handlers';
import { createResponsesStreamState, type ResponsesStreamState } from './responses-stream-state';
import {
  handleSummaryPartAdded,
  handleSummaryPartDone,
  handleSummaryText,
} from './responses-summary-handlers';
import type { StreamVerdict } from './stream-verdict';
import { formatValue, isInteger } from './value-guards';

type Handler = (state: ResponsesStreamState, data: JSONObject) => void;

const HANDLERS: Readonly<Record<string, Handler>> = {
  'response.output_item.added': handleOutputItemAdded,
  'response.output_item.done': handleOutputItemDone,
  'response.content_part.added': handleContentPartAdded,
  'response.content_part.done': handleContentPartDone,
  'response.output_text.annotation.added': handleAnnotationAdded,
  'response.function_call_arguments.delta': handleArgumentsDelta,
  'response.function_call_arguments.done': handleArgumentsDone,
  'response.reasoning_summary_part.added': handleSummaryPartAdded,
  'response.reasoning_summary_part.done': handleSummaryPartDone,
  'response.reasoning_summary_text.delta': (state, data) => handleSummaryText(state, data, 'delta'),
  'response.reasoning_summary_text.done': (state, data) => handleSummaryText(state, data, 'done'),
  error: handleErrorEvent,
};

/**
 * Checks an OpenAI Responses SSE stream against the event order of https://platform.openai.com/docs/api-reference/responses-streaming
 * and every constraint the OpenAI SDK 7.57 stream accumulator enforces, independently of the gateway's codecs.
 */
export function validateResponsesStream(messages: readonly SSEMessage[]): StreamVerdict {
  const state = createResponsesStreamState();
  messages.forEach((message, index) => validateResponsesMessage(state, message, index));
  enterEndOfStream(state, messages.length);
  if (state.terminalType === undefined) {
    reportViolation(
      state,
      'stream ended without a terminal event (response.completed | response.incomplete | response.failed | error)',
    );
  }
  return { violations: state.violations, outcome: state.outcome, text: state.text, events: state.events };
}

function validateResponsesMessage(state: ResponsesStreamState, message: SSEMessage, index: number): void {
  const read = readTypedEvent(state, message, index);
  if (!read) return;
  const { data, type } = read;
  checkSequenceNumber(state, data);
  if (state.terminalType !== undefined) {
    reportViolation(state, `event after the terminal ${state.terminalType}`);
    return;
  }
  if (!RESPONSES_EVENT_TYPES.has(type)) {
    reportViolation(state, `unknown event type "${type}" (the OpenAI SDK throws on it)`);
    return;
  }
  checkLifecyclePosition(state, type);
  dispatchResponsesEvent(state, type, data);
}

function dispatchResponsesEvent(state: ResponsesStreamState, type: string, data: JSONObject): void {
  const handler = HANDLERS[type];
  const passThroughItemType = RESPONSES_PASS_THROUGH_ITEM_TYPES[type];
  if (handler) handler(state, data);
  else if (isPartTextEvent(type)) handlePartTextEvent(state, type, data);
  else if (isTerminalResponseEvent(type)) handleTerminalResponse(state, type, data);
  else if (isLifecycleEvent(type)) handleLifecycleEvent(state, type, data);
  else if (passThroughItemType !== undefined) handlePassThroughItemEvent(state, data, passThroughItemType);
}

function checkSequenceNumber(state: ResponsesStreamState, data: JSONObject): void {
  const sequenceNumber = data.sequence_number;
  if (!isInteger(sequenceNumber)) {
    reportViolation(state, `sequence_number must be an integer, got ${formatValue(sequenceNumber)}`);
    state.nextSequenceNumber += 1;
    return;
  }
  if (sequenceNumber !== state.nextSequenceNumber) {
    reportViolation(
      state,
      `sequence_number ${sequenceNumber}, expected ${state.nextSequenceNumber} (from 0, +1 per event)`,
    );
  }
  state.nextSequenceNumber = sequenceNumber + 1;
}
