import {
  isJSONObject,
  mergeUnknownFields,
  UNKNOWN_FIELDS_OPTION,
  unsupportedParameter,
  type GenerationRequest,
  type JSONObject,
  type ToolChoice,
  type ToolDefinition,
  type Translated,
  type TranslationWarning,
} from '@signalbox/core';
import { checkOpenAIToolName, encodeOpenAIResponseFormat } from '@signalbox/codec-openai-shared';
import { getOpenAIChatOptions } from '../openai-chat-options';
import { encodeOpenAIChatMessages } from './encode-openai-chat-messages';

/** Chat accepts at most 4 stop sequences. */
const MAX_STOP_SEQUENCES = 4;

/** Provider options the encoder applies itself instead of copying them into the body. */
const HANDLED_OPTIONS = new Set(['stream_options', 'max_tokens', UNKNOWN_FIELDS_OPTION]);

/**
 * IR → the body for a Chat Completions UPSTREAM. Sends only what the IR sets; when streaming it
 * always asks for the usage chunk (the gateway needs usage even if the client did not ask).
 * `providerOptions['openai-chat']` (a Chat client's Chat-only fields, then its unknown fields as
 * sent) is merged in; IR fields win.
 */
export function encodeOpenAIChatRequest(
  request: GenerationRequest,
  upstreamModel: string,
): Translated<JSONObject> {
  const warnings: TranslationWarning[] = [];
  const options = getOpenAIChatOptions(request);
  const body: JSONObject = {
    model: upstreamModel,
    messages: encodeOpenAIChatMessages(request, warnings),
    stream: request.stream,
  };
  if (request.stream) body.stream_options = { ...streamOptionsOf(options), include_usage: true };
  if (request.maxOutputTokens !== undefined) {
    // The client's own field name: older OpenAI-compatible servers know only `max_tokens`.
    body[options?.max_tokens !== undefined ? 'max_tokens' : 'max_completion_tokens'] =
      request.maxOutputTokens;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined) body.stop = encodeStopSequences(request.stopSequences);
  encodeToolFields(request, body);
  if (request.responseFormat !== undefined)
    body.response_format = encodeOpenAIResponseFormat(request.responseFormat, true);
  if (request.reasoning !== undefined) encodeReasoning(request.reasoning, body, warnings);
  if (request.metadata !== undefined) body.metadata = request.metadata;
  if (request.user !== undefined) body.user = request.user;
  if (request.promptCacheKey !== undefined) body.prompt_cache_key = request.promptCacheKey;
  for (const [key, value] of Object.entries(options ?? {})) {
    if (!HANDLED_OPTIONS.has(key) && body[key] === undefined) body[key] = value;
  }
  mergeUnknownFields(body, options);
  return { value: body, warnings };
}

function streamOptionsOf(options: JSONObject | undefined): JSONObject {
  return isJSONObject(options?.stream_options) ? options.stream_options : {};
}

function encodeStopSequences(stopSequences: string[]): string[] {
  if (stopSequences.length <= MAX_STOP_SEQUENCES) return stopSequences;
  throw unsupportedParameter(
    'stopSequences',
    `this model's upstream accepts at most ${MAX_STOP_SEQUENCES} stop sequences; got ${stopSequences.length}`,
  );
}

/**
 * OpenAI refuses an empty `tools` array, and `tool_choice` / `parallel_tool_calls` without tools.
 * Without tools, `auto`/`none` and the parallel flag mean nothing, so they are left out; a forced
 * choice is still sent (the upstream's 400 is the honest answer to it).
 */
function encodeToolFields(request: GenerationRequest, body: JSONObject): void {
  const tools = request.tools ?? [];
  const hasTools = tools.length > 0;
  if (hasTools) body.tools = tools.map(encodeTool);
  const choice = request.toolChoice;
  if (choice !== undefined && (hasTools || choice.type === 'required' || choice.type === 'tool')) {
    body.tool_choice = encodeToolChoice(choice);
  }
  if (hasTools && request.parallelToolCalls !== undefined)
    body.parallel_tool_calls = request.parallelToolCalls;
}

function encodeTool(tool: ToolDefinition, index: number): JSONObject {
  return {
    type: 'function',
    function: {
      name: checkOpenAIToolName(tool.name, index),
      ...(tool.description !== undefined && { description: tool.description }),
      parameters: tool.inputSchema,
      ...(tool.strict !== undefined && { strict: tool.strict }),
    },
  };
}

function encodeToolChoice(choice: ToolChoice): JSONObject[string] {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}


function encodeReasoning(
  reasoning: NonNullable<GenerationRequest['reasoning']>,
  body: JSONObject,
  warnings: TranslationWarning[],
): void {
  if (reasoning.effort !== undefined) body.reasoning_effort = reasoning.effort;
  else if (reasoning.budgetTokens !== undefined) {
    warnings.push({
      type: 'unsupported-field',
      field: 'reasoning.budgetTokens',
      details: 'Chat takes a reasoning effort, not a token budget; the upstream default applies.',
    });
  }
}
