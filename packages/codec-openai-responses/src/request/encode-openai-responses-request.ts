import {
  isJSONObject,
  mergeUnknownFields,
  UNKNOWN_FIELDS_OPTION,
  unsupportedParameter,
  type GenerationRequest,
  type JSONObject,
  type JSONValue,
  type ReasoningEffort,
  type ResponseFormat,
  type ToolChoice,
  type Translated,
  type TranslationWarning,
} from '@signalbox/core';
import { encodeOpenAIResponseFormat } from '@signalbox/codec-openai-shared';
import { encodeOpenAIResponsesInput } from './encode-openai-responses-input';
import { encodeOpenAIResponsesTools } from './encode-openai-responses-tools';
import { restoreNamespacedToolName } from '../tools/namespaced-tool-names';
import { RESPONSES_ONLY_ITEMS, RESPONSES_ONLY_TOOL_CHOICE, RESPONSES_ONLY_TOOLS } from './responses-only-options';

/** OpenAI rejects `max_output_tokens` below 16 (`integer_below_min_value`). */
const MINIMUM_OUTPUT_TOKENS = 16;

/**
 * IR → the upstream `POST /v1/responses` body. Sends only what the IR set, plus `store: false`
 * (the gateway never chains stored responses); `providerOptions['openai-responses']` is merged in.
 */
export function encodeOpenAIResponsesRequest(
  request: GenerationRequest,
  upstreamModel: string,
): Translated<JSONObject> {
  const warnings: TranslationWarning[] = [];
  const body: JSONObject = { model: upstreamModel };
  const instructions = request.system.map(part => part.text).join('\n\n');
  if (instructions !== '') body.instructions = instructions;
  body.input = encodeOpenAIResponsesInput(request.messages, warnings).map(item => restoreNamespace(item, request));
  body.stream = request.stream;
  assignSamplingFields(body, request, warnings);
  assignToolFields(body, request);
  if (request.responseFormat !== undefined) {
    body.text = { format: encodeOpenAIResponsesTextFormat(request.responseFormat) };
  }
  if (request.metadata !== undefined) body.metadata = request.metadata;
  if (request.user !== undefined) body.safety_identifier = request.user;
  if (request.promptCacheKey !== undefined) body.prompt_cache_key = request.promptCacheKey;
  refuseLostItems(request);
  mergeProviderOptions(body, request.providerOptions?.['openai-responses']);
  body.store ??= false;
  return { value: body, warnings };
}

function assignSamplingFields(
  body: JSONObject,
  request: GenerationRequest,
  warnings: TranslationWarning[],
): void {
  if (request.maxOutputTokens !== undefined) {
    body.max_output_tokens = encodeMaxOutputTokens(request.maxOutputTokens, warnings);
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) {
    // Not droppable: without it the answer would run past where the client asked it to stop.
    throw unsupportedParameter(
      ['stopSequences'],
      'stop sequences cannot be sent to this model: its upstream speaks the Responses API, which has no stop parameter. Remove them or pick a route on another upstream',
    );
  }
  const effort = encodeReasoningEffort(request.reasoning, warnings);
  if (effort !== undefined) body.reasoning = { effort };
}

/** Flat function tools; `strict` only when the IR says so (arbitrary schemas fail strict mode). */
function assignToolFields(body: JSONObject, request: GenerationRequest): void {
  const responsesOnly = request.providerOptions?.['openai-responses']?.[RESPONSES_ONLY_TOOLS];
  const extraTools = Array.isArray(responsesOnly) ? responsesOnly : [];
  if (request.tools !== undefined || extraTools.length > 0) {
    body.tools = [...encodeOpenAIResponsesTools(request.tools ?? []), ...extraTools];
  }
  if (request.toolChoice !== undefined)
    body.tool_choice = encodeOpenAIResponsesToolChoice(request.toolChoice);
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
}

/**
 * Built-in tool items reach a Responses upstream only in the client's own body (same-protocol
 * routes); the IR does not hold them, so an encoded request would silently lose them.
 */
function refuseLostItems(request: GenerationRequest): void {
  const items = request.providerOptions?.['openai-responses']?.[RESPONSES_ONLY_ITEMS];
  if (!Array.isArray(items) || items.length === 0) return;
  throw unsupportedParameter(['input'], `input items of type '${String(items[0])}' can only be forwarded in the client's own Responses body`);
}

/** A replayed call of a namespaced function goes back under its own name and namespace, as the tools declare it. */
function restoreNamespace(item: JSONObject, request: GenerationRequest): JSONObject {
  if (item.type !== 'function_call' || typeof item.name !== 'string') return item;
  return { ...item, ...restoreNamespacedToolName(item.name, request.tools) };
}

/** IR tool choice → Responses `tool_choice` (also used to echo it in responses). */
export function encodeOpenAIResponsesToolChoice(toolChoice: ToolChoice): JSONValue {
  return toolChoice.type === 'tool' ? { type: 'function', name: toolChoice.name } : toolChoice.type;
}

/** IR response format → the flattened Responses `text.format` (also used to echo it). */
export function encodeOpenAIResponsesTextFormat(format: ResponseFormat): JSONObject {
  return encodeOpenAIResponseFormat(format, false);
}

function encodeMaxOutputTokens(value: number, warnings: TranslationWarning[]): number {
  if (value >= MINIMUM_OUTPUT_TOKENS) return value;
  warnings.push({
    type: 'lossy-conversion',
    field: 'maxOutputTokens',
    details: `Raised from ${value} to ${MINIMUM_OUTPUT_TOKENS}, the Responses API minimum.`,
  });
  return MINIMUM_OUTPUT_TOKENS;
}

/** A thinking budget (Messages) has no Responses field: bucket it into an effort. */
function encodeReasoningEffort(
  reasoning: GenerationRequest['reasoning'],
  warnings: TranslationWarning[],
): ReasoningEffort | undefined {
  if (reasoning?.effort !== undefined) return reasoning.effort;
  if (reasoning?.budgetTokens === undefined) return undefined;
  const budget = reasoning.budgetTokens;
  const effort: ReasoningEffort = budget < 4096 ? 'low' : budget < 16384 ? 'medium' : 'high';
  warnings.push({
    type: 'lossy-conversion',
    field: 'reasoning.budgetTokens',
    details: `A budget of ${budget} tokens is sent as effort '${effort}'.`,
  });
  return effort;
}

/** Markers of the decoder, not fields: the encoder reads them itself or merges them apart. */
const MARKER_OPTIONS: ReadonlySet<string> = new Set([RESPONSES_ONLY_TOOLS, RESPONSES_ONLY_ITEMS, RESPONSES_ONLY_TOOL_CHOICE, UNKNOWN_FIELDS_OPTION]);

/**
 * Protocol-only fields: objects (`text`, `reasoning`) merge under the IR's, other fields fill gaps;
 * then the client's unknown fields, as sent, where nothing else is set.
 */
function mergeProviderOptions(body: JSONObject, options: JSONObject | undefined): void {
  if (options === undefined) return;
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || MARKER_OPTIONS.has(key)) continue;
    // OpenAI refuses `stream_options` on non-streaming requests.
    if (key === 'stream_options' && body.stream !== true) continue;
    const current = body[key];
    if (isJSONObject(current) && isJSONObject(value)) body[key] = { ...value, ...current };
    else if (current === undefined) body[key] = value;
  }
  mergeUnknownFields(body, options);
}
