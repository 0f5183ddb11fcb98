import { readTypedEvent } from './read-typed-event';
import { isJSONObject, type JSONObject, type SSEMessage } from '@signalbox/core';
import { handleBlockDelta, handleBlockStart, handleBlockStop } from './messages-block-handlers';
import { createMessagesStreamState, type MessagesStreamState } from './messages-stream-state';
import { enterEndOfStream, reportViolation } from './report-violation';
import type { StreamOutcome, StreamVerdict } from './stream-verdict';
import { formatValue, isInteger, isNonEmptyString } from './value-guards';

/**
 * Every `stop_reason` of the SDK's `StopReason` union and how a client must judge it
 * (https://docs.anthropic.com/en/docs/build-with-claude/handling-stop-reasons).
 */
const STOP_REASON_OUTCOMES: Readonly<Record<string, StreamOutcome>> = {
  end_turn: 'completed',
  stop_sequence: 'completed',
  tool_use: 'completed',
  max_tokens: 'incomplete',
  refusal: 'incomplete',
  pause_turn: 'incomplete',
  model_context_window_exceeded: 'incomplete',
};

type Handler = (state: MessagesStreamState, data: JSONObject) => void;

const HANDLERS: Readonly<Record<string, Handler>> = {
  message_start: handleMessageStart,
  content_block_start: handleBlockStart,
  content_block_delta: handleBlockDelta,
  content_block_stop: handleBlockStop,
  message_delta: handleMessageDelta,
  message_stop: handleMessageStop,
  ping: () => undefined,
  error: handleErrorEvent,
};

/**
 * Checks an Anthropic Messages SSE stream against the event order of https://docs.anthropic.com/en/api/messages-streaming
 * and the SDK `MessageStream` constraints, independently of the gateway's codecs.
 */
export function validateMessagesStream(messages: readonly SSEMessage[]): StreamVerdict {
  const state = createMessagesStreamState();
  messages.forEach((message, index) => validateMessagesMessage(state, message, index));
  enterEndOfStream(state, messages.length);
  if (state.terminalType === undefined) reportViolation(state, 'stream ended without message_stop or error');
  return { violations: state.violations, outcome: state.outcome, text: state.text, events: state.events };
}

function validateMessagesMessage(state: MessagesStreamState, message: SSEMessage, index: number): void {
  const read = readTypedEvent(state, message, index);
  if (!read) return;
  const { data, type } = read;
  const handler = HANDLERS[type];
  if (state.terminalType !== undefined) {
    reportViolation(state, `event after the terminal ${state.terminalType}`);
  } else if (!handler) {
    reportViolation(state, `unknown event type "${type}"`);
  } else {
    dispatchMessagesEvent(state, type, data, handler);
  }
}

function dispatchMessagesEvent(
  state: MessagesStreamState,
  type: string,
  data: JSONObject,
  handler: Handler,
): void {
  // Reported once; the rest of the stream is still checked.
  if (!state.firstEventChecked && type !== 'message_start' && type !== 'error') {
    reportViolation(state, `the first event must be message_start, got ${type}`);
  }
  state.firstEventChecked = true;
  handler(state, data);
}

function handleMessageStart(state: MessagesStreamState, data: JSONObject): void {
  if (state.started) {
    reportViolation(state, 'second message_start (the SDK throws "Unexpected event order")');
    return;
  }
  state.started = true;
  const message = data.message;
  if (!isJSONObject(message)) {
    reportViolation(state, `message must be an object, got ${formatValue(message)}`);
    return;
  }
  const problems: string[] = [];
  if (!isNonEmptyString(message.id)) {
    problems.push(`id must be a non-empty string, got ${formatValue(message.id)}`);
  }
  if (message.type !== 'message') problems.push(`type must be "message", got ${formatValue(message.type)}`);
  if (message.role !== 'assistant') {
    problems.push(`role must be "assistant", got ${formatValue(message.role)}`);
  }
  if (!Array.isArray(message.content) || message.content.length > 0) {
    problems.push(`content must be [], got ${formatValue(message.content)}`);
  }
  if (!isNonEmptyString(message.model)) {
    problems.push(`model must be a non-empty string, got ${formatValue(message.model)}`);
  }
  if (message.stop_reason !== null) {
    problems.push(`stop_reason must be null, got ${formatValue(message.stop_reason)}`);
  }
  if (message.stop_sequence !== null && message.stop_sequence !== undefined) {
    problems.push(`stop_sequence must be null, got ${formatValue(message.stop_sequence)}`);
  }
  const usage = message.usage;
  if (!isJSONObject(usage) || !isInteger(usage.input_tokens)) {
    problems.push(`usage.input_tokens must be an integer, got ${formatValue(usage)}`);
  } else if (usage.output_tokens !== undefined && !isInteger(usage.output_tokens)) {
    problems.push(`usage.output_tokens must be an integer, got ${formatValue(usage.output_tokens)}`);
  }
  for (const problem of problems) reportViolation(state, `message.${problem}`);
}

function handleMessageDelta(state: MessagesStreamState, data: JSONObject): void {
  state.messageDeltaCount += 1;
  if (state.messageDeltaCount > 1) {
    reportViolation(state, 'second message_delta (exactly one precedes message_stop)');
  }
  checkAllBlocksStopped(state, 'message_delta');
  const delta = data.delta;
  const stopReason = isJSONObject(delta) ? delta.stop_reason : undefined;
  if (typeof stopReason !== 'string' || !(stopReason in STOP_REASON_OUTCOMES)) {
    reportViolation(state, `delta.stop_reason must be a known stop reason, got ${formatValue(stopReason)}`);
  } else {
    state.stopReason = stopReason;
    checkToolUseConsistency(state, stopReason);
  }
  const usage = data.usage;
  if (!isJSONObject(usage) || !isInteger(usage.output_tokens)) {
    reportViolation(state, `usage.output_tokens must be an integer, got ${formatValue(usage)}`);
  }
}

/** Clients run tools only on `stop_reason: "tool_use"`, so tool blocks and that reason must go together. */
function checkToolUseConsistency(state: MessagesStreamState, stopReason: string): void {
  const hasToolUse = state.blocks.some(block => block.type === 'tool_use');
  if (stopReason === 'tool_use' && !hasToolUse) {
    reportViolation(state, 'stop_reason "tool_use" without a tool_use block');
  }
  if (hasToolUse && (stopReason === 'end_turn' || stopReason === 'stop_sequence')) {
    reportViolation(state, `tool_use block(s) streamed but stop_reason is "${stopReason}"`);
  }
}

function checkAllBlocksStopped(state: MessagesStreamState, type: string): void {
  for (const block of state.blocks) {
    if (!block.stopped) reportViolation(state, `${type} while block ${block.index} was never stopped`);
  }
}

function handleMessageStop(state: MessagesStreamState): void {
  state.terminalType = 'message_stop';
  if (state.messageDeltaCount === 0) checkAllBlocksStopped(state, 'message_stop');
  if (state.messageDeltaCount === 0) reportViolation(state, 'message_stop without a preceding message_delta');
  state.outcome =
    state.stopReason === undefined ? 'none' : (STOP_REASON_OUTCOMES[state.stopReason] ?? 'none');
}

function handleErrorEvent(state: MessagesStreamState, data: JSONObject): void {
  state.terminalType = 'error';
  state.outcome = 'error';
  const error = data.error;
  if (!isJSONObject(error) || !isNonEmptyString(error.type) || typeof error.message !== 'string') {
    reportViolation(state, `error must be {type, message}, got ${formatValue(error)}`);
  }
}
