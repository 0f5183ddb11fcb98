import {
  isJSONObject,
  isNullishBoolean,
  isNullishCount,
  isNullishInRange,
  isNullishMember,
  isNullishString,
  type JSONObject,
  type JSONValue,
} from '@signalbox/core';
import type { OpenAIResponsesRequest } from './openai-responses-request-schema';

type Nullish<Value> = Value | null | undefined;
type Reasoning = OpenAIResponsesRequest['reasoning'];
type Text = OpenAIResponsesRequest['text'];

const EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);
const SUMMARIES = new Set(['auto', 'concise', 'detailed']);
const VERBOSITIES = new Set(['low', 'medium', 'high']);
const TRUNCATIONS = new Set(['auto', 'disabled']);
// Records of anything and arrays of anything in the schema: copied as sent once their kind checks.
const RECORDS = ['prompt_cache_options', 'client_metadata', 'moderation', 'image', 'access_programs'] as const;
const ARRAYS = ['tools', 'context_management'] as const;

/**
 * The request nearly every client sends (a model, input, instructions, plain scalar options,
 * reasoning, a text format, tools passed on), checked field by field and copied as
 * `openAIResponsesRequestSchema` leaves it, without the schema's walk. `undefined` leaves the body
 * to the schema, which takes everything else and names what is wrong. Input items and tools are
 * checked later, one by one, as before.
 */
export function readCommonResponsesRequest(body: JSONObject): OpenAIResponsesRequest | undefined {
  const { model, input } = body;
  if (typeof model !== 'string' || model === '' || (typeof input !== 'string' && !Array.isArray(input))) return undefined;
  if (body.metadata != null || !hasCommonScalars(body) || !hasCommonCollections(body)) return undefined;
  const reasoning = readReasoning(body.reasoning);
  const text = readText(body.text);
  const streamOptions = readStreamOptions(body.stream_options);
  if (reasoning === false || text === false || streamOptions === false) return undefined;
  return {
    ...scalarsOf(body),
    model,
    input,
    tools: body.tools as Nullish<unknown[]>,
    tool_choice: body.tool_choice,
    text,
    reasoning,
    metadata: body.metadata as null | undefined,
    include: body.include as Nullish<string[]>,
    stream_options: streamOptions,
    prompt_cache_options: body.prompt_cache_options as Nullish<JSONObject>,
    client_metadata: body.client_metadata as Nullish<JSONObject>,
    context_management: body.context_management as Nullish<unknown[]>,
    moderation: body.moderation as Nullish<JSONObject>,
    image: body.image as Nullish<JSONObject>,
    access_programs: body.access_programs as Nullish<JSONObject>,
  };
}

function scalarsOf(body: JSONObject): Partial<OpenAIResponsesRequest> {
  return {
    instructions: body.instructions as Nullish<string>,
    stream: body.stream as Nullish<boolean>,
    max_output_tokens: body.max_output_tokens as Nullish<number>,
    temperature: body.temperature as Nullish<number>,
    top_p: body.top_p as Nullish<number>,
    parallel_tool_calls: body.parallel_tool_calls as Nullish<boolean>,
    user: body.user as Nullish<string>,
    safety_identifier: body.safety_identifier as Nullish<string>,
    store: body.store as Nullish<boolean>,
    service_tier: body.service_tier as Nullish<string>,
    truncation: body.truncation as OpenAIResponsesRequest['truncation'],
    prompt_cache_key: body.prompt_cache_key as Nullish<string>,
    prompt_cache_retention: body.prompt_cache_retention as Nullish<string>,
    top_logprobs: body.top_logprobs as Nullish<number>,
    max_tool_calls: body.max_tool_calls as Nullish<number>,
    background: body.background as Nullish<boolean>,
  };
}

function hasCommonScalars(body: JSONObject): boolean {
  return (
    isNullishString(body.instructions) &&
    isNullishString(body.user) &&
    isNullishString(body.safety_identifier) &&
    isNullishString(body.service_tier) &&
    isNullishString(body.prompt_cache_key) &&
    isNullishString(body.prompt_cache_retention) &&
    isNullishBoolean(body.stream) &&
    isNullishBoolean(body.parallel_tool_calls) &&
    isNullishBoolean(body.store) &&
    isNullishBoolean(body.background) &&
    isNullishCount(body.max_output_tokens, 16) &&
    isNullishCount(body.top_logprobs, 0, 20) &&
    isNullishCount(body.max_tool_calls, 1) &&
    isNullishInRange(body.temperature, 0, 2) &&
    isNullishInRange(body.top_p, 0, 1) &&
    isNullishMember(body.truncation, TRUNCATIONS)
  );
}

// A record whose keys include `__proto__` is left to the schema, whose copy would differ.
function hasCommonCollections(body: JSONObject): boolean {
  for (const field of RECORDS) {
    const value = body[field];
    if (value != null && (!isJSONObject(value) || Object.hasOwn(value, '__proto__'))) return false;
  }
  for (const field of ARRAYS) if (body[field] != null && !Array.isArray(body[field])) return false;
  const include = body.include;
  if (include == null) return true;
  if (!Array.isArray(include)) return false;
  for (const entry of include) if (typeof entry !== 'string') return false;
  return true;
}

function readReasoning(value: JSONValue | undefined): Reasoning | false {
  if (value == null) return value;
  if (
    !isJSONObject(value) ||
    !isNullishMember(value.effort, EFFORTS) ||
    !isNullishMember(value.summary, SUMMARIES) ||
    !isNullishMember(value.generate_summary, SUMMARIES) ||
    !isNullishString(value.context) ||
    !isNullishString(value.mode)
  )
    return false;
  return {
    effort: value.effort as NonNullable<Reasoning>['effort'],
    summary: value.summary as NonNullable<Reasoning>['summary'],
    generate_summary: value.generate_summary as NonNullable<Reasoning>['generate_summary'],
    context: value.context,
    mode: value.mode,
  };
}

// Plain text output (or none named); a JSON format goes to the schema.
function readText(value: JSONValue | undefined): Text | false {
  if (value == null) return value;
  if (!isJSONObject(value) || !isNullishMember(value.verbosity, VERBOSITIES)) return false;
  const format = value.format;
  if (format != null && !(isJSONObject(format) && format.type === 'text')) return false;
  return { format: format == null ? format : { type: 'text' }, verbosity: value.verbosity as NonNullable<Text>['verbosity'] };
}

function readStreamOptions(value: JSONValue | undefined): OpenAIResponsesRequest['stream_options'] | false {
  if (value == null) return value;
  if (!isJSONObject(value) || !isNullishBoolean(value.include_obfuscation)) return false;
  return { include_obfuscation: value.include_obfuscation as Nullish<boolean> };
}
