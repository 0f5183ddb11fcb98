import { isJSONObject, type JSONObject, type JSONValue } from '@signalbox/core';
import type { ChatChoice, ChatStreamState, ChatToolCall } from './chat-stream-state';
import { reportViolation } from './report-violation';
import type { StreamOutcome } from './stream-verdict';
import { formatValue, isInteger, isNonEmptyString } from './value-guards';

/** Every `finish_reason` of the SDK chunk type and how a client must judge it. */
const FINISH_REASON_OUTCOMES: Readonly<Record<string, StreamOutcome>> = {
  stop: 'completed',
  tool_calls: 'completed',
  function_call: 'completed',
  length: 'incomplete',
  content_filter: 'incomplete',
};

/** One `choices[]` entry: role first, text/refusal strings, tool-call fragments, at most one finish_reason. */
export function checkChoice(state: ChatStreamState, choiceData: JSONValue | undefined): void {
  if (!isJSONObject(choiceData) || !isInteger(choiceData.index)) {
    reportViolation(state, `choice must be an object with an integer index, got ${formatValue(choiceData)}`);
    return;
  }
  const choice = findOrAddChoice(state, choiceData);
  const delta = choiceData.delta;
  if (choice.finishReason !== undefined) {
    reportViolation(state, `choice ${choice.index} continues after its finish_reason`);
  }
  if (!isJSONObject(delta)) {
    reportViolation(state, `choices[${choice.index}].delta must be an object, got ${formatValue(delta)}`);
    return;
  }
  checkDeltaTexts(state, choice, delta);
  if (delta.tool_calls !== undefined && delta.tool_calls !== null) {
    if (!Array.isArray(delta.tool_calls)) {
      reportViolation(state, `delta.tool_calls must be an array, got ${formatValue(delta.tool_calls)}`);
    } else {
      for (const fragment of delta.tool_calls) checkToolCallFragment(state, choice, fragment);
    }
  }
  checkFinishReason(state, choice, choiceData.finish_reason);
}

function findOrAddChoice(state: ChatStreamState, choiceData: JSONObject): ChatChoice {
  const existing = state.choices.find(choice => choice.index === choiceData.index);
  if (existing) return existing;
  const delta = choiceData.delta;
  if (!isJSONObject(delta) || delta.role !== 'assistant') {
    reportViolation(
      state,
      `the first chunk of choice ${formatValue(choiceData.index)} must carry delta.role "assistant"`,
    );
  }
  const choice: ChatChoice = { index: Number(choiceData.index), finishReason: undefined, toolCalls: [] };
  state.choices.push(choice);
  return choice;
}

function checkDeltaTexts(state: ChatStreamState, choice: ChatChoice, delta: JSONObject): void {
  if (delta.role !== undefined && delta.role !== 'assistant') {
    reportViolation(state, `delta.role must be "assistant", got ${formatValue(delta.role)}`);
  }
  for (const field of ['content', 'refusal']) {
    const value = delta[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      reportViolation(state, `delta.${field} must be a string or null, got ${formatValue(value)}`);
    }
  }
  if (choice.index === 0 && typeof delta.content === 'string') state.text += delta.content;
}

/** A tool-call fragment as read off the wire, after its shape was checked. */
type ToolCallFragment = { index: number; id: unknown; type: unknown; name: unknown; argumentsText: string };

/** A new tool-call index starts with id, type "function" and a name; later fragments keep that identity. */
function checkToolCallFragment(state: ChatStreamState, choice: ChatChoice, value: JSONValue): void {
  const fragment = readToolCallFragment(state, value);
  if (!fragment) return;
  const existing = choice.toolCalls.find(call => call.index === fragment.index);
  if (existing) {
    checkContinuationFragment(state, existing, fragment);
    existing.argumentsText += fragment.argumentsText;
    return;
  }
  checkFirstFragment(state, choice, fragment);
  choice.toolCalls.push({
    index: fragment.index,
    id: String(fragment.id),
    name: String(fragment.name),
    argumentsText: fragment.argumentsText,
  });
}

function readToolCallFragment(state: ChatStreamState, value: JSONValue): ToolCallFragment | undefined {
  const fn = isJSONObject(value) ? value.function : undefined;
  if (!isJSONObject(value) || !isInteger(value.index) || (fn !== undefined && !isJSONObject(fn))) {
    reportViolation(state, `tool call fragment must have an integer index, got ${formatValue(value)}`);
    return undefined;
  }
  const fragmentArguments = isJSONObject(fn) ? fn.arguments : undefined;
  if (fragmentArguments !== undefined && typeof fragmentArguments !== 'string') {
    reportViolation(
      state,
      `tool call ${value.index} function.arguments must be a string, got ${formatValue(fragmentArguments)}`,
    );
  }
  return {
    index: value.index,
    id: value.id,
    type: value.type,
    name: isJSONObject(fn) ? fn.name : undefined,
    argumentsText: typeof fragmentArguments === 'string' ? fragmentArguments : '',
  };
}

function checkFirstFragment(state: ChatStreamState, choice: ChatChoice, fragment: ToolCallFragment): void {
  const first = `the first fragment of tool call ${fragment.index}`;
  if (fragment.index !== choice.toolCalls.length) {
    reportViolation(
      state,
      `tool call index ${fragment.index}, expected ${choice.toolCalls.length} (contiguous from 0)`,
    );
  }
  if (!isNonEmptyString(fragment.id)) {
    reportViolation(state, `${first} needs an id, got ${formatValue(fragment.id)}`);
  }
  if (fragment.type !== 'function') {
    reportViolation(state, `${first} needs type "function", got ${formatValue(fragment.type)}`);
  }
  if (!isNonEmptyString(fragment.name)) {
    reportViolation(state, `${first} needs function.name, got ${formatValue(fragment.name)}`);
  }
}

function checkContinuationFragment(
  state: ChatStreamState,
  existing: ChatToolCall,
  fragment: ToolCallFragment,
): void {
  if (fragment.id !== undefined && fragment.id !== existing.id) {
    reportViolation(
      state,
      `tool call index ${fragment.index} reused with a different id ${formatValue(fragment.id)} (first "${existing.id}")`,
    );
  }
  if (fragment.type !== undefined && fragment.type !== 'function') {
    reportViolation(state, `tool call ${fragment.index} type changed to ${formatValue(fragment.type)}`);
  }
  if (fragment.name !== undefined && fragment.name !== existing.name) {
    reportViolation(
      state,
      `tool call ${fragment.index} name changed to ${formatValue(fragment.name)} (first "${existing.name}")`,
    );
  }
}

function checkFinishReason(
  state: ChatStreamState,
  choice: ChatChoice,
  finishReason: JSONValue | undefined,
): void {
  if (finishReason === null) return;
  if (typeof finishReason !== 'string' || !(finishReason in FINISH_REASON_OUTCOMES)) {
    reportViolation(state, `finish_reason must be null or a known reason, got ${formatValue(finishReason)}`);
    return;
  }
  choice.finishReason = finishReason;
  const outcome = FINISH_REASON_OUTCOMES[finishReason] ?? 'none';
  if (state.outcome !== 'incomplete') state.outcome = outcome;
  for (const call of choice.toolCalls) {
    try {
      JSON.parse(call.argumentsText);
    } catch {
      reportViolation(
        state,
        `arguments of tool call ${call.index} do not parse as JSON: ${formatValue(call.argumentsText)}`,
      );
    }
  }
  if (finishReason === 'tool_calls' && choice.toolCalls.length === 0) {
    reportViolation(state, 'finish_reason "tool_calls" without any tool call');
  }
  if (finishReason === 'stop' && choice.toolCalls.length > 0) {
    reportViolation(state, 'tool calls streamed but finish_reason is "stop" (clients expect "tool_calls")');
  }
}
