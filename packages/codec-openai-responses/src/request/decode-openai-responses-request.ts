import {
  collectUnknownFields,
  createValidationError,
  isJSONObject,
  refuseForeignFields,
  UNKNOWN_FIELDS_OPTION,
  type DecodeOptions,
  type GenerationRequest,
  type JSONObject,
  type JSONValue,
  type Translated,
  type TranslationWarning,
} from '@signalbox/core';
import { decodeOpenAIResponsesInput } from './decode-openai-responses-input';
import { decodeOpenAIResponsesToolChoice, decodeOpenAIResponsesTools } from './decode-openai-responses-tools';
import { KNOWN_REQUEST_FIELDS, openAIResponsesRequestSchema, type OpenAIResponsesRequest } from './openai-responses-request-schema';
import { parseAt } from './parse-at';
import { readCommonResponsesRequest } from './read-common-responses-request';
import { RESPONSES_ONLY_ITEMS, RESPONSES_ONLY_TOOL_CHOICE, RESPONSES_ONLY_TOOLS } from './responses-only-options';
import { refuseForeignShapedBody, refuseServerSideFeatures } from './refuse-openai-responses-body';

/**
 * Validates an untrusted `POST /v1/responses` body and converts it to the IR. Throws a 400
 * `GatewayError` naming the field; protocol-only fields ride in `providerOptions['openai-responses']`,
 * and top-level fields the gateway does not know (a field OpenAI added since) under its
 * `unknown_fields`, as sent: a same-protocol route forwards the client's body with them, a translated
 * one drops them with a warning each. Fields of the gateway's other endpoints
 * (`options.foreignFields`) are refused.
 */
export function decodeOpenAIResponsesRequest(body: unknown, options: DecodeOptions = {}): Translated<GenerationRequest> {
  if (!isJSONObject(body))
    throw createValidationError([{ path: [], message: 'Expected a JSON object body' }]);
  refuseForeignShapedBody(body, options);
  // As OpenAI refuses them: each stands for something the Responses API spells differently.
  refuseForeignFields(body, options, KNOWN_REQUEST_FIELDS);
  refuseServerSideFeatures(body);
  const parsed = readCommonResponsesRequest(body) ?? parseAt(openAIResponsesRequestSchema, body, []);
  const warnings: TranslationWarning[] = [];
  const responsesOnlyItems: string[] = [];
  const request: GenerationRequest = {
    model: parsed.model,
    system: parsed.instructions ? [{ type: 'text', text: parsed.instructions }] : [],
    messages: decodeOpenAIResponsesInput(parsed.input, warnings, responsesOnlyItems),
    stream: parsed.stream === true,
  };
  assignSamplingFields(request, parsed);
  const tools = parsed.tools ? decodeOpenAIResponsesTools(parsed.tools) : undefined;
  if (tools && (tools.tools.length > 0 || tools.responsesOnlyTools.length === 0)) request.tools = tools.tools;
  const providerOptions = collectProviderOptions(parsed);
  const unknownFields = collectUnknownFields(body, KNOWN_REQUEST_FIELDS);
  if (unknownFields !== undefined) providerOptions[UNKNOWN_FIELDS_OPTION] = unknownFields;
  if (parsed.tool_choice !== undefined && parsed.tool_choice !== null) {
    const toolChoice = decodeOpenAIResponsesToolChoice(parsed.tool_choice);
    if (!toolChoice) providerOptions.tool_choice = parsed.tool_choice as JSONValue;
    else request.toolChoice = toolChoice;
    if (toolChoice?.type === 'required' && !request.tools?.length && tools?.responsesOnlyTools.length) {
      providerOptions[RESPONSES_ONLY_TOOL_CHOICE] = 'required';
    }
  }
  if (tools && tools.responsesOnlyTools.length > 0) providerOptions[RESPONSES_ONLY_TOOLS] = tools.responsesOnlyTools;
  if (responsesOnlyItems.length > 0) providerOptions[RESPONSES_ONLY_ITEMS] = responsesOnlyItems;
  if (Object.keys(providerOptions).length > 0)
    request.providerOptions = { 'openai-responses': providerOptions };
  return { value: request, warnings };
}

function assignSamplingFields(request: GenerationRequest, parsed: OpenAIResponsesRequest): void {
  if (parsed.max_output_tokens != null) request.maxOutputTokens = parsed.max_output_tokens;
  if (parsed.temperature != null) request.temperature = parsed.temperature;
  if (parsed.top_p != null) request.topP = parsed.top_p;
  if (parsed.parallel_tool_calls != null) request.parallelToolCalls = parsed.parallel_tool_calls;
  if (parsed.reasoning?.effort) request.reasoning = { effort: parsed.reasoning.effort };
  if (parsed.metadata) request.metadata = parsed.metadata;
  const user = parsed.safety_identifier ?? parsed.user;
  if (user) request.user = user;
  if (parsed.prompt_cache_key != null) request.promptCacheKey = parsed.prompt_cache_key;
  const format = parsed.text?.format;
  if (!format) return;
  if (format.type === 'text') request.responseFormat = { type: 'text' };
  else if (format.type === 'json_object') request.responseFormat = { type: 'json-object' };
  else {
    request.responseFormat = { type: 'json-schema', schema: format.schema as JSONObject, name: format.name };
    if (format.description) request.responseFormat.description = format.description;
    if (typeof format.strict === 'boolean') request.responseFormat.strict = format.strict;
  }
}

const PASS_THROUGH_FIELDS = [
  'store',
  'include',
  'service_tier',
  'truncation',
  'prompt_cache_retention',
  'prompt_cache_options',
  'top_logprobs',
  'stream_options',
  'max_tool_calls',
  'background',
  'client_metadata',
  'context_management',
  'moderation',
  'image',
  'access_programs',
] as const satisfies ReadonlyArray<keyof OpenAIResponsesRequest>;

/** Fields only a Responses upstream understands, kept for it (other encoders ignore them). */
function collectProviderOptions(parsed: OpenAIResponsesRequest): JSONObject {
  const options: JSONObject = {};
  for (const field of PASS_THROUGH_FIELDS) {
    if (parsed[field] != null) options[field] = parsed[field] as JSONValue;
  }
  if (parsed.text?.verbosity) options.text = { verbosity: parsed.text.verbosity };
  const { effort: _effort, ...reasoning } = parsed.reasoning ?? {};
  const reasoningOptions = withoutNullish(reasoning);
  if (Object.keys(reasoningOptions).length > 0) options.reasoning = reasoningOptions;
  // Both ids given: `safety_identifier` becomes the IR user; the deprecated `user` still reaches a Responses upstream.
  if (parsed.safety_identifier && parsed.user) options.user = parsed.user;
  return options;
}

function withoutNullish(value: Record<string, string | null | undefined>): JSONObject {
  const result: JSONObject = {};
  for (const [key, entry] of Object.entries(value)) if (entry != null) result[key] = entry;
  return result;
}
