import {
  assertNever,
  collectUnknownFields,
  invalidParameter,
  isJSONObject,
  UNKNOWN_FIELDS_OPTION,
  type DecodeOptions,
  type GenerationRequest,
  type JSONObject,
  type TextPart,
  type Translated,
  type TranslationWarning,
} from '@signalbox/core';
import { withDecodedCacheControl } from '../cache/anthropic-cache-control';
import {
  ANTHROPIC_NULLISH_PASS_THROUGH_FIELDS,
  ANTHROPIC_REQUEST_FIELDS,
  type AnthropicRequest,
} from '../schema/anthropic-request-schema';
import { decodeAnthropicTurns } from './decode-anthropic-turns';
import { decodeAnthropicToolChoice, decodeAnthropicTools } from './decode-anthropic-tools';
import { parseAnthropicRequest } from './parse-anthropic-request';

/** Wire fields only Messages has; they ride in `providerOptions['anthropic-messages']` for a Messages upstream. */
const PROVIDER_FIELDS = ['top_k', 'service_tier', 'cache_control', ...ANTHROPIC_NULLISH_PASS_THROUGH_FIELDS] as const;

/**
 * Sampling fields that `anthropic-version: 2026-10-21` removed: Anthropic answers a body that still
 * sends them with a 400, so the gateway does too for clients on that version.
 * @see https://docs.anthropic.com/en/api/versioning
 */
const REMOVED_IN_2026_10_21 = ['temperature', 'top_p', 'top_k'] as const;

/**
 * A client's Messages body → IR. Validates first (400 naming the field), then converts; fields
 * with no IR slot go to `providerOptions['anthropic-messages']`, and top-level fields the gateway
 * does not know (a field Anthropic added since) under its `unknown_fields`, as sent: a same-protocol
 * route forwards the client's body with them, a translated one drops them with a warning each. A
 * client that declared API version 2026-10-21 (accepted only when the host opts in) gets that
 * version's rules.
 */
export function decodeAnthropicRequest(body: unknown, options: DecodeOptions = {}): Translated<GenerationRequest> {
  const wire = parseAnthropicRequest(body, options);
  if (options.apiVersion === '2026-10-21') refuseRemovedSamplingFields(wire);
  const warnings: TranslationWarning[] = [];
  const request: GenerationRequest = {
    model: wire.model,
    system: decodeSystem(wire.system),
    messages: decodeAnthropicTurns(wire.messages, warnings),
    stream: wire.stream ?? false,
    maxOutputTokens: wire.max_tokens,
  };
  if (wire.temperature !== undefined) request.temperature = wire.temperature;
  if (wire.top_p !== undefined) request.topP = wire.top_p;
  if (wire.stop_sequences !== undefined) request.stopSequences = wire.stop_sequences;
  if (wire.tools !== undefined) request.tools = decodeAnthropicTools(wire.tools, warnings);
  if (wire.tool_choice !== undefined) Object.assign(request, decodeAnthropicToolChoice(wire.tool_choice));
  const reasoning = decodeReasoning(wire, warnings);
  if (reasoning !== undefined) request.reasoning = reasoning;
  const format = wire.output_config?.format;
  if (format) request.responseFormat = { type: 'json-schema', schema: format.schema as JSONObject };
  if (typeof wire.metadata?.user_id === 'string') request.user = wire.metadata.user_id;
  const providerOptions = decodeProviderOptions(wire, body);
  if (providerOptions !== undefined) request.providerOptions = { 'anthropic-messages': providerOptions };
  return { value: request, warnings };
}

function refuseRemovedSamplingFields(wire: AnthropicRequest): void {
  const field = REMOVED_IN_2026_10_21.find(name => wire[name] !== undefined);
  if (field === undefined) return;
  throw invalidParameter(field, 'Extra inputs are not permitted (removed in anthropic-version 2026-10-21)');
}

function decodeSystem(system: AnthropicRequest['system']): TextPart[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ type: 'text', text: system }];
  return system.map(block => withDecodedCacheControl<TextPart>({ type: 'text', text: block.text }, block.cache_control));
}

// `thinking` decides whether the model reasons; `output_config.effort` how hard (adaptive thinking).
function decodeReasoning(
  wire: AnthropicRequest,
  warnings: TranslationWarning[],
): GenerationRequest['reasoning'] {
  const effort = wire.output_config?.effort ?? undefined;
  const thinking = wire.thinking;
  if (thinking === undefined) return effort === undefined ? undefined : { effort };
  switch (thinking.type) {
    case 'enabled':
      if (thinking.budget_tokens >= wire.max_tokens) {
        throw invalidParameter('thinking.budget_tokens', 'must be less than max_tokens');
      }
      if (effort !== undefined) {
        warnings.push({
          type: 'lossy-conversion',
          field: 'output_config.effort',
          details: 'A thinking budget was given; the budget is kept and the effort is dropped.',
        });
      }
      return { budgetTokens: thinking.budget_tokens };
    case 'adaptive':
      return { effort: effort ?? 'medium' };
    case 'disabled':
      return { effort: 'none' };
    case 'between_tools':
      return effort === undefined ? undefined : { effort };
    default:
      return assertNever(thinking, 'Anthropic thinking');
  }
}

function decodeProviderOptions(wire: AnthropicRequest, body: unknown): JSONObject | undefined {
  const options: JSONObject = {};
  const unknownFields = isJSONObject(body) ? collectUnknownFields(body, ANTHROPIC_REQUEST_FIELDS) : undefined;
  if (unknownFields !== undefined) options[UNKNOWN_FIELDS_OPTION] = unknownFields;
  for (const field of PROVIDER_FIELDS) {
    const value = wire[field];
    if (value !== undefined && value !== null) options[field] = value as JSONObject[string];
  }
  // `display` and `between_tools` have no IR slot; a Messages upstream gets the client's own `thinking`.
  const thinking = wire.thinking;
  if (thinking?.type === 'between_tools' || (thinking && 'display' in thinking && thinking.display != null)) {
    options.thinking = thinking as JSONObject;
  }
  return Object.keys(options).length > 0 ? options : undefined;
}
