import {
  isJSONObject,
  isNullishBoolean,
  isNullishCount,
  isNullishInRange,
  isNullishMember,
  isNullishString,
  isOptionalBoolean,
  type JSONObject,
  type JSONValue,
} from '@signalbox/core';
import type { OpenAIChatMessage, OpenAIChatRequest } from './openai-chat-request-schema';

type Nullish<Value> = Value | null | undefined;

// Fields of the schema that are not plain scalars: present (or, where the schema allows it, not
// null), the body goes to the schema.
const OPTIONAL_STRUCTURES = ['tools', 'tool_choice', 'response_format'];
const NULLISH_STRUCTURES = ['metadata', 'logit_bias', 'prompt_cache_options'];
const REASONING_EFFORTS = new Set(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);
const VERBOSITIES = new Set(['low', 'medium', 'high']);

/**
 * The request nearly every client sends (a model, text messages without tool calls, plain scalar
 * options), checked field by field and copied with the fields `openAIChatRequestSchema` keeps,
 * without the schema's walk. `undefined` leaves the body to the schema, which takes everything else
 * and names what is wrong.
 */
export function readCommonChatRequest(body: JSONObject): OpenAIChatRequest | undefined {
  for (const field of OPTIONAL_STRUCTURES) if (body[field] !== undefined) return undefined;
  for (const field of NULLISH_STRUCTURES) if (body[field] != null) return undefined;
  const model = body.model;
  if (typeof model !== 'string' || model === '' || !Array.isArray(body.messages) || body.messages.length === 0) return undefined;
  const messages: OpenAIChatMessage[] = [];
  for (const message of body.messages) {
    const read = readMessage(message);
    if (read === undefined) return undefined;
    messages.push(read);
  }
  const stop = readStop(body.stop);
  const streamOptions = readStreamOptions(body.stream_options);
  if (stop === false || streamOptions === false || !hasCommonScalars(body)) return undefined;
  return {
    model,
    messages,
    max_completion_tokens: body.max_completion_tokens as Nullish<number>,
    max_tokens: body.max_tokens as Nullish<number>,
    temperature: body.temperature as Nullish<number>,
    top_p: body.top_p as Nullish<number>,
    stop,
    stream: body.stream as Nullish<boolean>,
    stream_options: streamOptions,
    parallel_tool_calls: body.parallel_tool_calls as Nullish<boolean>,
    reasoning_effort: body.reasoning_effort as OpenAIChatRequest['reasoning_effort'],
    user: body.user as string | undefined,
    safety_identifier: body.safety_identifier as Nullish<string>,
    n: body.n as Nullish<number>,
    presence_penalty: body.presence_penalty as Nullish<number>,
    frequency_penalty: body.frequency_penalty as Nullish<number>,
    seed: body.seed as Nullish<number>,
    logprobs: body.logprobs as Nullish<boolean>,
    top_logprobs: body.top_logprobs as Nullish<number>,
    store: body.store as Nullish<boolean>,
    service_tier: body.service_tier as Nullish<string>,
    prompt_cache_key: body.prompt_cache_key as Nullish<string>,
    prompt_cache_retention: body.prompt_cache_retention as Nullish<string>,
    verbosity: body.verbosity as OpenAIChatRequest['verbosity'],
    // Left to the schema when present; `null` is all that reaches here.
    metadata: body.metadata as null | undefined,
    logit_bias: body.logit_bias as null | undefined,
    prompt_cache_options: body.prompt_cache_options as null | undefined,
  };
}

function hasCommonScalars(body: JSONObject): boolean {
  return (
    isNullishCount(body.max_completion_tokens, 1) &&
    isNullishCount(body.max_tokens, 1) &&
    isNullishCount(body.n, 1) &&
    isNullishCount(body.top_logprobs, 0, 20) &&
    isNullishCount(body.seed, Number.MIN_SAFE_INTEGER) &&
    isNullishInRange(body.temperature, 0, 2) &&
    isNullishInRange(body.top_p, 0, 1) &&
    isNullishInRange(body.presence_penalty, -2, 2) &&
    isNullishInRange(body.frequency_penalty, -2, 2) &&
    isNullishBoolean(body.stream) &&
    isNullishBoolean(body.parallel_tool_calls) &&
    isNullishBoolean(body.logprobs) &&
    isNullishBoolean(body.store) &&
    (body.user === undefined || typeof body.user === 'string') &&
    isNullishString(body.safety_identifier) &&
    isNullishString(body.service_tier) &&
    isNullishString(body.prompt_cache_key) &&
    isNullishString(body.prompt_cache_retention) &&
    isNullishMember(body.reasoning_effort, REASONING_EFFORTS) &&
    isNullishMember(body.verbosity, VERBOSITIES)
  );
}

// A system, developer, user or assistant turn of text (no tool calls, refusals or media).
function readMessage(message: unknown): OpenAIChatMessage | undefined {
  if (!isJSONObject(message) || (message.name !== undefined && typeof message.name !== 'string')) return undefined;
  const { role, name } = message;
  const content = readTextContent(message.content);
  if (content === undefined) return undefined;
  if (role === 'system' || role === 'developer' || role === 'user') return { role, content, name };
  if (
    role !== 'assistant' ||
    !isNullishString(message.refusal) ||
    message.tool_calls !== undefined ||
    message.audio !== undefined ||
    message.function_call !== undefined
  )
    return undefined;
  return { role, content, refusal: message.refusal, name };
}

/** A string, or text parts copied as the schema leaves them; `undefined` for anything else. */
function readTextContent(content: JSONValue | undefined): string | { type: 'text'; text: string }[] | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: { type: 'text'; text: string }[] = [];
  for (const part of content) {
    if (!isJSONObject(part) || part.type !== 'text' || typeof part.text !== 'string') return undefined;
    parts.push({ type: 'text', text: part.text });
  }
  return parts;
}

function readStop(stop: JSONValue | undefined): OpenAIChatRequest['stop'] | false {
  if (stop == null || typeof stop === 'string') return stop;
  if (!Array.isArray(stop) || stop.length > 4) return false;
  for (const sequence of stop) if (typeof sequence !== 'string') return false;
  return [...(stop as string[])];
}

function readStreamOptions(options: JSONValue | undefined): OpenAIChatRequest['stream_options'] | false {
  if (options == null) return options;
  if (!isJSONObject(options)) return false;
  const { include_usage: includeUsage, include_obfuscation: includeObfuscation } = options;
  if (!isOptionalBoolean(includeUsage) || !isOptionalBoolean(includeObfuscation)) return false;
  return { include_usage: includeUsage, include_obfuscation: includeObfuscation };
}
