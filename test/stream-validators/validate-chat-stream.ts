import { isJSONObject, type JSONObject, type SSEMessage } from '@signalbox/core';
import { checkChoice } from './chat-choice-checks';
import { createChatStreamState, type ChatStreamOptions, type ChatStreamState } from './chat-stream-state';
import { findUsageProblems } from './find-usage-problems';
import { enterEndOfStream, reportViolation } from './report-violation';
import type { StreamVerdict } from './stream-verdict';
import { formatValue, isInteger, isNonEmptyString, parseJSONObject } from './value-guards';

/**
 * Checks an OpenAI Chat Completions SSE stream
 * (https://platform.openai.com/docs/api-reference/chat-streaming): data-only chunks with one
 * identity, role first, one finish_reason per choice, coherent tool-call fragments, the optional
 * usage chunk, then `[DONE]`; or an `{"error":…}` frame with nothing after it. Independent of the
 * gateway's codecs.
 */
export function validateChatStream(
  messages: readonly SSEMessage[],
  options: ChatStreamOptions = {},
): StreamVerdict {
  const state = createChatStreamState(options);
  messages.forEach((message, index) => validateChatMessage(state, message, index));
  enterEndOfStream(state, messages.length);
  checkStreamEnd(state);
  return { violations: state.violations, outcome: state.outcome, text: state.text, events: state.events };
}

function validateChatMessage(state: ChatStreamState, message: SSEMessage, index: number): void {
  state.index = index;
  state.label = 'chunk';
  if (message.event !== undefined) {
    reportViolation(state, `event: line "${message.event}" in a Chat stream (Chat frames are data-only)`);
  }
  if (state.terminal !== undefined) {
    state.events.push('(after terminal)');
    reportViolation(state, `frame after the ${state.terminal}: ${formatValue(message.data)}`);
    return;
  }
  if (message.data === '[DONE]') {
    state.label = '[DONE]';
    state.events.push('[DONE]');
    state.terminal = '[DONE]';
    return;
  }
  const data = parseJSONObject(message.data);
  if (!data) {
    state.events.push('(invalid)');
    reportViolation(state, `data must be a JSON object or [DONE], got ${formatValue(message.data)}`);
  } else if (data.error !== undefined && data.error !== null) {
    handleErrorFrame(state, data);
  } else {
    handleChunk(state, data);
  }
}

function handleErrorFrame(state: ChatStreamState, data: JSONObject): void {
  state.label = 'error';
  state.events.push('error');
  state.terminal = 'error frame';
  state.outcome = 'error';
  const error = data.error;
  if (!isJSONObject(error) || typeof error.message !== 'string' || typeof error.type !== 'string') {
    reportViolation(state, `error must be {message, type, param, code}, got ${formatValue(error)}`);
  }
}

function handleChunk(state: ChatStreamState, data: JSONObject): void {
  checkChunkIdentity(state, data);
  const choices = data.choices;
  if (!Array.isArray(choices)) {
    state.events.push('chunk');
    reportViolation(state, `choices must be an array, got ${formatValue(choices)}`);
    return;
  }
  if (choices.length === 0) {
    handleUsageChunk(state, data);
    return;
  }
  state.events.push('chunk');
  if (state.usageSeen) reportViolation(state, 'chunk with choices after the usage chunk');
  if (data.usage !== undefined && data.usage !== null) {
    reportViolation(state, `usage must be null on chunks with choices, got ${formatValue(data.usage)}`);
  }
  for (const choice of choices) checkChoice(state, choice);
}

function checkChunkIdentity(state: ChatStreamState, data: JSONObject): void {
  if (data.object !== 'chat.completion.chunk') {
    reportViolation(state, `object must be "chat.completion.chunk", got ${formatValue(data.object)}`);
  }
  if (!isNonEmptyString(data.id)) {
    reportViolation(state, `id must be a non-empty string, got ${formatValue(data.id)}`);
  }
  if (!isInteger(data.created)) {
    reportViolation(state, `created must be an integer, got ${formatValue(data.created)}`);
  }
  if (!isNonEmptyString(data.model)) {
    reportViolation(state, `model must be a non-empty string, got ${formatValue(data.model)}`);
  }
  const identity = { id: data.id, created: data.created, model: data.model };
  if (state.identity === undefined) {
    state.identity = identity;
    return;
  }
  for (const key of ['id', 'created', 'model'] as const) {
    if (identity[key] !== state.identity[key]) {
      reportViolation(
        state,
        `${key} ${formatValue(identity[key])} differs from the first chunk's ${formatValue(state.identity[key])}`,
      );
    }
  }
}

/** The `choices: []` chunk: only with usage, once, after every finish_reason, and only when requested. */
function handleUsageChunk(state: ChatStreamState, data: JSONObject): void {
  state.events.push('usage');
  if (data.usage === undefined || data.usage === null) {
    reportViolation(state, 'chunk with empty choices and no usage');
    return;
  }
  if (state.usageSeen) reportViolation(state, 'second usage chunk');
  state.usageSeen = true;
  if (state.options.expectUsage === false) {
    reportViolation(state, 'usage chunk sent although stream_options.include_usage was not requested');
  }
  if (state.choices.length === 0 || state.choices.some(choice => choice.finishReason === undefined)) {
    reportViolation(state, 'usage chunk before the finish_reason chunk');
  }
  for (const problem of findUsageProblems(data.usage, 'prompt_tokens', 'completion_tokens'))
    reportViolation(state, problem);
}

function checkStreamEnd(state: ChatStreamState): void {
  if (state.terminal === 'error frame') return;
  if (state.identity === undefined) reportViolation(state, 'stream carried no chunk');
  for (const choice of state.choices) {
    if (choice.finishReason === undefined) {
      reportViolation(state, `choice ${choice.index} never received a finish_reason`);
    }
  }
  if (state.choices.length === 0 || state.choices.some(choice => choice.finishReason === undefined)) {
    state.outcome = 'none';
  }
  if (state.options.expectUsage === true && !state.usageSeen) {
    reportViolation(state, 'usage chunk missing although stream_options.include_usage was requested');
  }
  if (state.terminal !== '[DONE]') reportViolation(state, 'stream ended without data: [DONE]');
}
