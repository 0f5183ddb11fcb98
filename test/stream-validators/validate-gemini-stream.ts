import { isJSONObject, type JSONObject, type SSEMessage } from '@signalbox/core';
import { enterEndOfStream, reportViolation, type ViolationContext } from './report-violation';
import type { StreamOutcome, StreamVerdict } from './stream-verdict';
import { formatValue, isInteger, isNonEmptyString, parseJSONObject } from './value-guards';

type GeminiStreamState = ViolationContext & {
  events: string[];
  text: string;
  outcome: StreamOutcome;
  identity: { responseId: unknown; modelVersion: unknown } | undefined;
  finishReason: string | undefined;
  terminal: 'error' | undefined;
};

/** The finish reasons of a whole answer; any other one says it was cut or filtered. */
const COMPLETED = new Set(['STOP']);
const PART_KINDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'executableCode', 'codeExecutionResult'];

/**
 * Checks a Gemini `streamGenerateContent` stream (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent):
 * data-only chunks, each a whole `GenerateContentResponse` of one identity (`responseId`,
 * `modelVersion`) with one candidate whose parts each hold one kind of content and whose function
 * calls come whole; a `finishReason` on the last chunk only, with `usageMetadata` whose total adds
 * up; or an `{"error":{code,message,status}}` chunk with nothing after it. A JSON-array stream is
 * checked the same once framed with `geminiArrayMessages`. Independent of the gateway's codecs.
 */
export function validateGeminiStream(messages: readonly SSEMessage[]): StreamVerdict {
  const state: GeminiStreamState = { violations: [], index: 0, label: 'chunk', events: [], text: '', outcome: 'none', identity: undefined, finishReason: undefined, terminal: undefined };
  messages.forEach((message, index) => validateMessage(state, message, index));
  enterEndOfStream(state, messages.length);
  if (state.terminal === undefined && state.finishReason === undefined) reportViolation(state, 'stream ended without a chunk with a finishReason');
  return { violations: state.violations, outcome: state.outcome, text: state.text, events: state.events };
}

/** A JSON-array stream's elements as data-only messages, or `undefined` when the text is not one JSON array. */
export function geminiArrayMessages(text: string): SSEMessage[] | undefined {
  try {
    const elements: unknown = JSON.parse(text);
    return Array.isArray(elements) ? elements.map(element => ({ data: JSON.stringify(element) })) : undefined;
  } catch {
    return undefined;
  }
}

function validateMessage(state: GeminiStreamState, message: SSEMessage, index: number): void {
  state.index = index;
  state.label = 'chunk';
  if (message.event !== undefined) reportViolation(state, `event: line "${message.event}" in a Gemini stream (its frames are data-only)`);
  if (state.terminal !== undefined || state.finishReason !== undefined) {
    state.events.push('(after terminal)');
    reportViolation(state, `chunk after the ${state.terminal ? 'error' : 'finishReason'}: ${formatValue(message.data)}`);
    return;
  }
  const data = parseJSONObject(message.data);
  if (!data) {
    state.events.push('(invalid)');
    return reportViolation(state, `data must be a JSON object, got ${formatValue(message.data)}`);
  }
  if (data.error !== undefined) return handleError(state, data.error);
  state.events.push('chunk');
  checkIdentity(state, data);
  if (data.candidates === undefined && isJSONObject(data.promptFeedback) && data.promptFeedback.blockReason !== undefined) {
    return finish(state, String(data.promptFeedback.blockReason), data);
  }
  const candidates = data.candidates;
  if (!Array.isArray(candidates) || candidates.length !== 1 || !isJSONObject(candidates[0])) {
    return reportViolation(state, `candidates must hold one candidate, got ${formatValue(candidates)}`);
  }
  const candidate = candidates[0];
  if (candidate.index !== undefined && candidate.index !== 0) reportViolation(state, `candidate index must be 0, got ${formatValue(candidate.index)}`);
  checkContent(state, candidate.content);
  if (candidate.finishReason !== undefined) finish(state, candidate.finishReason, data);
}

function handleError(state: GeminiStreamState, error: unknown): void {
  state.label = 'error';
  state.events.push('error');
  state.terminal = 'error';
  state.outcome = 'error';
  if (!isJSONObject(error) || !isInteger(error.code) || !isNonEmptyString(error.message) || !isNonEmptyString(error.status)) {
    reportViolation(state, `error must be {code, message, status}, got ${formatValue(error)}`);
  }
}

function checkIdentity(state: GeminiStreamState, data: JSONObject): void {
  const identity = { responseId: data.responseId, modelVersion: data.modelVersion };
  for (const key of ['responseId', 'modelVersion'] as const) {
    if (!isNonEmptyString(identity[key])) reportViolation(state, `${key} must be a non-empty string, got ${formatValue(identity[key])}`);
    else if (state.identity !== undefined && identity[key] !== state.identity[key]) {
      reportViolation(state, `${key} ${formatValue(identity[key])} differs from the first chunk's ${formatValue(state.identity[key])}`);
    }
  }
  state.identity ??= identity;
}

function checkContent(state: GeminiStreamState, content: unknown): void {
  if (content === undefined) return;
  if (!isJSONObject(content) || content.role !== 'model' || !Array.isArray(content.parts)) {
    return reportViolation(state, `content must be {role: "model", parts: [...]}, got ${formatValue(content)}`);
  }
  for (const part of content.parts) {
    if (!isJSONObject(part)) {
      reportViolation(state, `a part must be an object, got ${formatValue(part)}`);
      continue;
    }
    const kinds = PART_KINDS.filter(kind => part[kind] !== undefined);
    if (kinds.length > 1) reportViolation(state, `a part holds one kind of content, got ${kinds.join(' and ')}`);
    if (kinds.length === 0 && part.thoughtSignature === undefined) reportViolation(state, `an empty part: ${formatValue(part)}`);
    if (part.thought !== undefined && typeof part.thought !== 'boolean') reportViolation(state, `thought must be a boolean, got ${formatValue(part.thought)}`);
    if (part.thoughtSignature !== undefined && !isNonEmptyString(part.thoughtSignature)) reportViolation(state, 'thoughtSignature must be a non-empty string');
    if (part.functionCall !== undefined) checkFunctionCall(state, part.functionCall);
    if (typeof part.text === 'string' && part.thought !== true) state.text += part.text;
  }
}

function checkFunctionCall(state: GeminiStreamState, call: unknown): void {
  if (!isJSONObject(call) || !isNonEmptyString(call.name) || (call.args !== undefined && !isJSONObject(call.args))) {
    reportViolation(state, `functionCall must be {name, args: {...}}, whole in one chunk, got ${formatValue(call)}`);
  }
}

function finish(state: GeminiStreamState, reason: unknown, data: JSONObject): void {
  if (!isNonEmptyString(reason)) return reportViolation(state, `finishReason must be a name, got ${formatValue(reason)}`);
  state.finishReason = reason;
  state.outcome = COMPLETED.has(reason) ? 'completed' : 'incomplete';
  const usage = data.usageMetadata;
  if (!isJSONObject(usage)) return reportViolation(state, 'the chunk with the finishReason carries no usageMetadata');
  const counts = ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount'].map(key => usage[key]);
  if (!counts.every(isInteger)) return reportViolation(state, `usageMetadata counts must be integers, got ${formatValue(usage)}`);
  const [prompt, candidates, total] = counts as number[];
  const thoughts = isInteger(usage.thoughtsTokenCount) ? usage.thoughtsTokenCount : 0;
  const toolUse = isInteger(usage.toolUsePromptTokenCount) ? usage.toolUsePromptTokenCount : 0;
  if (total !== prompt! + candidates! + thoughts + toolUse) reportViolation(state, `usageMetadata.totalTokenCount ${total} is not the sum of its parts`);
  if (isInteger(usage.cachedContentTokenCount) && usage.cachedContentTokenCount > prompt!) reportViolation(state, 'cachedContentTokenCount exceeds promptTokenCount');
}
