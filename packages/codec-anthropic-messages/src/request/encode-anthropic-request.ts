import {
  assertNever,
  mergeUnknownFields,
  UNKNOWN_FIELDS_OPTION,
  unsupportedParameter,
  type GenerationRequest,
  type JSONObject,
  type Translated,
  type TranslationWarning,
} from '@signalbox/core';
import { encodeAnthropicTurns } from './encode-anthropic-turns';
import { encodeAnthropicThinking } from './encode-anthropic-thinking';
import { encodeAnthropicToolChoice, encodeAnthropicTools } from './encode-anthropic-tools';

/** `max_tokens` is required by Messages; this is sent when the IR request has no cap. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/**
 * IR → an upstream Messages body for `upstreamModel`. Sends only what the IR set; hints Messages
 * cannot carry are dropped with a warning, and anything that would change the answer is refused.
 */
export function encodeAnthropicRequest(
  request: GenerationRequest,
  upstreamModel: string,
): Translated<JSONObject> {
  const warnings: TranslationWarning[] = [];
  const { system, messages } = encodeAnthropicTurns(request, warnings);
  const thinking = encodeAnthropicThinking(request, DEFAULT_ANTHROPIC_MAX_TOKENS, warnings);
  const body: JSONObject = { model: upstreamModel, max_tokens: thinking.maxTokens, messages };
  if (system.length > 0) body.system = system;
  if (request.stream) body.stream = true;
  encodeSampling(
    request,
    body,
    thinking.thinking?.type === 'enabled' || thinking.thinking?.type === 'adaptive',
    warnings,
  );
  if (request.stopSequences !== undefined && request.stopSequences.length > 0)
    body.stop_sequences = request.stopSequences;
  if (request.tools !== undefined && request.tools.length > 0)
    body.tools = encodeAnthropicTools(request.tools);
  const toolChoice = encodeAnthropicToolChoice(request);
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  if (thinking.thinking !== undefined) body.thinking = thinking.thinking;
  const outputConfig: JSONObject = {};
  if (thinking.effort !== undefined) outputConfig.effort = thinking.effort;
  const format = encodeResponseFormat(request);
  if (format !== undefined) outputConfig.format = format;
  if (Object.keys(outputConfig).length > 0) body.output_config = outputConfig;
  const metadata = encodeMetadata(request, warnings);
  if (metadata !== undefined) body.metadata = metadata;
  mergeMessagesOptions(body, request.providerOptions?.['anthropic-messages'], thinking.refused === true);
  return { value: body, warnings };
}

/**
 * A Messages client's own Messages-only fields as sent, then its unknown fields where nothing else is
 * set. Its own `thinking` (kept for `display`) stays out when thinking had to be left off.
 */
function mergeMessagesOptions(body: JSONObject, options: JSONObject | undefined, thinkingRefused: boolean): void {
  if (options === undefined) return;
  for (const [key, value] of Object.entries(options)) {
    if (key !== UNKNOWN_FIELDS_OPTION && !(thinkingRefused && key === 'thinking')) body[key] = value;
  }
  mergeUnknownFields(body, options);
}

// Messages (2023-06-01) takes temperature in [0, 1] (OpenAI-shaped clients may send up to 2). With
// thinking on, Anthropic accepts only temperature 1 and top_p ≥ 0.95: other values are a 400 upstream.
function encodeSampling(
  request: GenerationRequest,
  body: JSONObject,
  thinking: boolean,
  warnings: TranslationWarning[],
): void {
  const { temperature, topP } = request;
  if (temperature !== undefined) {
    const clamped = Math.min(Math.max(temperature, 0), 1);
    if (thinking && clamped !== 1) {
      warnings.push({
        type: 'unsupported-field',
        field: 'temperature',
        details: 'Anthropic accepts only temperature 1 with thinking; dropped.',
      });
    } else {
      if (clamped !== temperature) {
        warnings.push({
          type: 'lossy-conversion',
          field: 'temperature',
          details: `Clamped from ${temperature} to ${clamped} (Anthropic accepts 0–1).`,
        });
      }
      body.temperature = clamped;
    }
  }
  if (topP === undefined) return;
  if (thinking && topP < 0.95) {
    warnings.push({
      type: 'unsupported-field',
      field: 'topP',
      details: 'Anthropic accepts only top_p ≥ 0.95 with thinking; dropped.',
    });
  } else body.top_p = topP;
}

function encodeResponseFormat(request: GenerationRequest): JSONObject | undefined {
  const format = request.responseFormat;
  if (format === undefined) return undefined;
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json-object':
      throw unsupportedParameter(
        'responseFormat',
        'JSON object mode has no Anthropic Messages equivalent; send a JSON schema instead',
      );
    case 'json-schema':
      return { type: 'json_schema', schema: format.schema };
    default:
      return assertNever(format, 'IR response format');
  }
}

// Messages metadata has exactly one field, `user_id`.
function encodeMetadata(request: GenerationRequest, warnings: TranslationWarning[]): JSONObject | undefined {
  if (request.metadata !== undefined && Object.keys(request.metadata).length > 0) {
    warnings.push({
      type: 'unsupported-field',
      field: 'metadata',
      details: 'Anthropic Messages carries only metadata.user_id.',
    });
  }
  return request.user !== undefined ? { user_id: request.user } : undefined;
}
