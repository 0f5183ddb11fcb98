import { isJSONObject, type JSONObject } from '@signalbox/core';
import { findUsageProblems } from './find-usage-problems';
import { reportViolation } from './report-violation';
import { checkSameIdentity } from './responses-item-handlers';
import type { ResponsesStreamState } from './responses-stream-state';
import type { StreamOutcome } from './stream-verdict';
import { formatValue, isNonEmptyString } from './value-guards';

const LIFECYCLE_STATUSES: Readonly<Record<string, readonly string[]>> = {
  'response.created': ['in_progress', 'queued'],
  'response.queued': ['queued'],
  'response.in_progress': ['in_progress'],
};

const LIFECYCLE_ORDER: readonly ResponsesStreamState['lifecycle'][] = [
  'start',
  'created',
  'queued',
  'running',
];

const TERMINAL_OUTCOMES: Readonly<Record<string, StreamOutcome>> = {
  'response.completed': 'completed',
  'response.incomplete': 'incomplete',
  'response.failed': 'failed',
};

/** `response.created`, `response.queued` or `response.in_progress`. */
export function isLifecycleEvent(type: string): boolean {
  return type in LIFECYCLE_STATUSES;
}

/** `response.completed`, `response.incomplete` or `response.failed`. */
export function isTerminalResponseEvent(type: string): boolean {
  return type in TERMINAL_OUTCOMES;
}

/**
 * Grammar head: `response.created` first, then optional `response.queued`, then `response.in_progress`
 * before any output. An `error` may end the stream at any point.
 */
export function checkLifecyclePosition(state: ResponsesStreamState, type: string): void {
  if (type === 'error') return;
  const lifecycle = state.lifecycle;
  if (lifecycle === 'start' && type !== 'response.created') {
    reportViolation(state, `the first event must be response.created, got ${type}`);
  } else if (lifecycle !== 'start' && type === 'response.created') {
    reportViolation(state, 'second response.created');
  } else if (lifecycle === 'running' && type === 'response.queued') {
    reportViolation(state, 'response.queued after response.in_progress');
  } else if (lifecycle === 'created' && type !== 'response.queued' && type !== 'response.in_progress') {
    reportViolation(state, `response.in_progress must follow response.created, got ${type}`);
  } else if (lifecycle === 'queued' && type !== 'response.in_progress') {
    reportViolation(state, `response.in_progress must follow response.queued, got ${type}`);
  }
  // Report a broken head once, not again for every output event that follows it.
  if (!isLifecycleEvent(type)) state.lifecycle = 'running';
}

/** `response.created` / `queued` / `in_progress`: a response object with the stable id and a fitting status. */
export function handleLifecycleEvent(state: ResponsesStreamState, type: string, data: JSONObject): void {
  const reached = type === 'response.created' ? 'created' : type === 'response.queued' ? 'queued' : 'running';
  // The head only moves forward, so a repeated or late lifecycle event is reported once.
  if (LIFECYCLE_ORDER.indexOf(reached) > LIFECYCLE_ORDER.indexOf(state.lifecycle)) state.lifecycle = reached;
  const response = readResponse(state, data);
  if (!response) return;
  const statuses = LIFECYCLE_STATUSES[type] ?? [];
  if (!statuses.includes(String(response.status))) {
    reportViolation(
      state,
      `response.status must be ${statuses.join(' or ')}, got ${formatValue(response.status)}`,
    );
  }
  if (type === 'response.created' && (!Array.isArray(response.output) || response.output.length > 0)) {
    reportViolation(state, `response.output must be [] at creation, got ${formatValue(response.output)}`);
  }
  checkUsage(state, response);
}

/** `response.completed` / `incomplete` / `failed`: the one terminal; status, details, usage and output checked. */
export function handleTerminalResponse(state: ResponsesStreamState, type: string, data: JSONObject): void {
  state.terminalType = type;
  state.outcome = TERMINAL_OUTCOMES[type] ?? 'none';
  const response = readResponse(state, data);
  if (response) {
    checkTerminalStatus(state, type, response);
    checkUsage(state, response);
    checkFinalOutput(state, type, response);
  }
  if (type !== 'response.failed') {
    for (const item of state.items) {
      if (!item.done) {
        reportViolation(
          state,
          `item "${item.id}" at output_index ${item.outputIndex} has no output_item.done`,
        );
      }
    }
  }
}

/**
 * `error`: terminal; carries both the documented flat shape (`code`/`message`, https://platform.openai.com/docs/api-reference/responses-streaming) and
 * the nested `error:{…}` shape seen from some servers, so clients reading either find the failure.
 */
export function handleErrorEvent(state: ResponsesStreamState, data: JSONObject): void {
  state.terminalType = 'error';
  state.outcome = 'error';
  if (typeof data.message !== 'string' || !('code' in data)) {
    reportViolation(state, `error event lacks the flat code/message shape, got ${formatValue(data)}`);
  }
  const nested = data.error;
  if (!isJSONObject(nested) || typeof nested.message !== 'string' || typeof nested.type !== 'string') {
    reportViolation(
      state,
      `error event lacks the nested error:{type, code, message} shape, got ${formatValue(nested)}`,
    );
  }
}

function readResponse(state: ResponsesStreamState, data: JSONObject): JSONObject | undefined {
  const response = data.response;
  if (!isJSONObject(response)) {
    reportViolation(state, `response must be an object, got ${formatValue(response)}`);
    return undefined;
  }
  if (!isNonEmptyString(response.id)) {
    reportViolation(state, `response.id must be a non-empty string, got ${formatValue(response.id)}`);
  } else if (state.responseId === undefined) {
    state.responseId = response.id;
  } else if (response.id !== state.responseId) {
    reportViolation(state, `response.id "${response.id}" differs from the first one, "${state.responseId}"`);
  }
  return response;
}

function checkTerminalStatus(state: ResponsesStreamState, type: string, response: JSONObject): void {
  const expected = TERMINAL_OUTCOMES[type];
  if (response.status !== expected) {
    reportViolation(state, `response.status must be "${expected}", got ${formatValue(response.status)}`);
  }
  const details = response.incomplete_details;
  if (type === 'response.incomplete' && !(isJSONObject(details) && isNonEmptyString(details.reason))) {
    reportViolation(state, `response.incomplete_details.reason is required, got ${formatValue(details)}`);
  }
  const error = response.error;
  if (type === 'response.failed' && !(isJSONObject(error) && typeof error.message === 'string')) {
    reportViolation(state, `response.error {code, message} is required, got ${formatValue(error)}`);
  }
}

function checkUsage(state: ResponsesStreamState, response: JSONObject): void {
  if (response.usage === null || response.usage === undefined) return;
  for (const problem of findUsageProblems(response.usage, 'input_tokens', 'output_tokens')) {
    reportViolation(state, `response.${problem}`);
  }
}

function checkFinalOutput(state: ResponsesStreamState, type: string, response: JSONObject): void {
  const output = response.output;
  if (!Array.isArray(output)) {
    if (type === 'response.completed') {
      reportViolation(state, `response.output must be an array, got ${formatValue(output)}`);
    }
    return;
  }
  if (output.length !== state.items.length) {
    reportViolation(state, `response.output has ${output.length} items, ${state.items.length} were streamed`);
  }
  const streamed = [...state.items].sort((left, right) => left.outputIndex - right.outputIndex);
  streamed.forEach((item, position) => {
    const final = output[position];
    if (isJSONObject(final)) checkSameIdentity(state, item, final, `response.output[${position}]`);
  });
}
