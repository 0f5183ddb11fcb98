import {
  collectUnknownFields,
  createValidationError,
  isJSONObject,
  refuseForeignFields,
  UNKNOWN_FIELDS_OPTION,
  unsupportedParameter,
  type DecodeOptions,
  type GenerationRequest,
  type JSONObject,
  type ResponseFormat,
  type ToolChoice,
  type ToolDefinition,
  type Translated,
  type TranslationWarning,
} from '@signalbox/core';
import { decodeOpenAIChatMessages } from './decode-openai-chat-messages';
import {
  openAIChatRequestSchema,
  REFUSED_OPENAI_CHAT_FIELDS,
  type OpenAIChatRequest,
} from './openai-chat-request-schema';
import { readCommonChatRequest } from './read-common-chat-request';

const KNOWN_FIELDS = new Set<string>([
  ...Object.keys(openAIChatRequestSchema.shape),
  ...REFUSED_OPENAI_CHAT_FIELDS,
]);

/** Chat-only fields with no IR slot, kept under their wire names for a Chat upstream. */
const CHAT_ONLY_FIELDS = [
  'n',
  'presence_penalty',
  'frequency_penalty',
  'logit_bias',
  'seed',
  'logprobs',
  'top_logprobs',
  'store',
  'service_tier',
  'prompt_cache_retention',
  'prompt_cache_options',
  'verbosity',
] as const satisfies ReadonlyArray<keyof OpenAIChatRequest>;

/**
 * The fields the endpoint takes as its own, so never refuses as another protocol's: its own, plus
 * those OpenAI-compatible servers take as their own extensions (OpenRouter's `reasoning`, the
 * `thinking` of servers such as vLLM's or GLM's), which a Chat route forwards like any other unknown
 * field. Other protocols' signature fields are refused as OpenAI refuses them: each stands for
 * something Chat spells differently, so forwarding or dropping it would lose what the client meant.
 */
const OWN_FIELDS = new Set<string>([...KNOWN_FIELDS, 'reasoning', 'thinking']);

/**
 * Validates an untrusted Chat Completions body and converts it to the IR. Fields of the gateway's
 * other endpoints (`options.foreignFields`) → 400 naming the field and where it belongs; features
 * the gateway cannot serve → 400 `UNSUPPORTED_PARAMETER` naming the field; wrong types → 400
 * naming the path. Top-level fields the
 * gateway does not know (a field OpenAI added since, an OpenAI-compatible server's own) are kept as
 * sent under `providerOptions['openai-chat'].unknown_fields`: a same-protocol route forwards the
 * client's body with them, a translated one drops them with a warning each.
 * @see https://platform.openai.com/docs/api-reference/chat
 */
export function decodeOpenAIChatRequest(body: unknown, options: DecodeOptions = {}): Translated<GenerationRequest> {
  if (!isJSONObject(body))
    throw createValidationError([{ path: [], message: 'The body must be a JSON object' }]);
  refuseForeignFields(body, options, OWN_FIELDS);
  refuseUnsupportedFields(body);
  const wire = readCommonChatRequest(body) ?? parseRequest(body);
  refuseSeveralChoices(wire.n);
  const warnings: TranslationWarning[] = [];
  const { system, messages } = decodeOpenAIChatMessages(wire.messages, warnings);
  const maxOutputTokens = wire.max_completion_tokens ?? wire.max_tokens ?? undefined;
  const user = wire.safety_identifier ?? wire.user ?? undefined;
  const request: GenerationRequest = {
    model: wire.model,
    system,
    messages,
    stream: wire.stream ?? false,
    ...(maxOutputTokens !== undefined && { maxOutputTokens }),
    ...(wire.temperature != null && { temperature: wire.temperature }),
    ...(wire.top_p != null && { topP: wire.top_p }),
    ...(wire.stop != null && { stopSequences: typeof wire.stop === 'string' ? [wire.stop] : wire.stop }),
    ...(wire.tools !== undefined && { tools: decodeTools(wire.tools) }),
    ...(wire.tool_choice !== undefined && { toolChoice: decodeToolChoice(wire.tool_choice) }),
    ...(wire.parallel_tool_calls != null && { parallelToolCalls: wire.parallel_tool_calls }),
    ...(wire.reasoning_effort != null && { reasoning: { effort: wire.reasoning_effort } }),
    ...(wire.response_format !== undefined && { responseFormat: decodeResponseFormat(wire.response_format) }),
    ...(wire.metadata != null && { metadata: wire.metadata }),
    ...(user !== undefined && { user }),
    ...(wire.prompt_cache_key != null && { promptCacheKey: wire.prompt_cache_key }),
  };
  const chatOptions = collectChatOptions(wire);
  const unknownFields = collectUnknownFields(body, KNOWN_FIELDS);
  if (unknownFields !== undefined) chatOptions[UNKNOWN_FIELDS_OPTION] = unknownFields;
  if (Object.keys(chatOptions).length > 0) request.providerOptions = { 'openai-chat': chatOptions };
  return { value: request, warnings };
}

function parseRequest(body: JSONObject): OpenAIChatRequest {
  const result = openAIChatRequestSchema.safeParse(body);
  if (!result.success) throw createValidationError(result.error.issues);
  return result.data;
}

function refuseUnsupportedFields(body: JSONObject): void {
  for (const field of REFUSED_OPENAI_CHAT_FIELDS) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    // `modalities: ["text"]` asks for what every answer is anyway.
    if (field === 'modalities' && Array.isArray(value) && value.every(modality => modality === 'text'))
      continue;
    throw unsupportedParameter(field, 'not supported by this gateway');
  }
}

function refuseSeveralChoices(n: number | null | undefined): void {
  if (n == null || n <= 1) return;
  throw unsupportedParameter('n', "only one choice per request is supported ('n' must be 1)");
}

function decodeTools(tools: NonNullable<OpenAIChatRequest['tools']>): ToolDefinition[] {
  return tools.map((tool, index) => {
    if (tool.type !== 'function') {
      throw unsupportedParameter(['tools', index], `tools of type '${tool.type}' are not supported; only function tools are`);
    }
    const { name, description, parameters, strict } = tool.function;
    return {
      name,
      ...(description !== undefined && { description }),
      // Omitted parameters mean "no arguments" in Chat; the IR always carries an object schema.
      inputSchema: (parameters as JSONObject | undefined) ?? { type: 'object', properties: {} },
      ...(strict != null && { strict }),
    };
  });
}

function decodeToolChoice(choice: NonNullable<OpenAIChatRequest['tool_choice']>): ToolChoice {
  if (typeof choice === 'string') return { type: choice };
  if (choice.type === 'function') return { type: 'tool', name: choice.function.name };
  throw unsupportedParameter('tool_choice', `tool_choice of type '${choice.type}' is not supported`);
}

function decodeResponseFormat(format: NonNullable<OpenAIChatRequest['response_format']>): ResponseFormat {
  if (format.type === 'text') return { type: 'text' };
  if (format.type === 'json_object') return { type: 'json-object' };
  const { name, description, schema, strict } = format.json_schema;
  return {
    type: 'json-schema',
    schema: (schema as JSONObject | undefined) ?? {},
    name,
    ...(description !== undefined && { description }),
    ...(strict != null && { strict }),
  };
}

/** The Chat-only fields, plus `stream_options` and the client's choice of `max_tokens` (see getOpenAIChatOptions). */
function collectChatOptions(wire: OpenAIChatRequest): JSONObject {
  const options: JSONObject = {};
  for (const field of CHAT_ONLY_FIELDS) {
    const value = wire[field];
    if (value !== undefined && value !== null) options[field] = value;
  }
  if (wire.stream_options != null) options.stream_options = wire.stream_options;
  if (wire.max_completion_tokens == null && wire.max_tokens != null) options.max_tokens = wire.max_tokens;
  return options;
}
