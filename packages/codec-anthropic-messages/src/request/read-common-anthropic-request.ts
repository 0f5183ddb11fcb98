import {
  isCount,
  isJSONObject,
  isNullishString,
  isOptionalBoolean,
  isOptionalCount,
  isOptionalInRange,
  type JSONObject,
  type JSONValue,
} from '@signalbox/core';
import {
  ANTHROPIC_NULLISH_PASS_THROUGH_FIELDS,
  type AnthropicMessageParam,
  type AnthropicRequest,
} from '../schema/anthropic-request-schema';

type TextBlock = { type: 'text'; text: string; cache_control: CacheControl; citations: unknown[] | null | undefined };
type CacheControl = { type: 'ephemeral'; ttl: '5m' | '1h' | undefined } | null | undefined;

// Fields whose shape is more than a scalar: present, the body goes to the schema.
const OPTIONAL_STRUCTURES = ['tools', 'tool_choice', 'thinking', 'output_config', 'service_tier'];

/**
 * The request nearly every client sends (a model, `max_tokens`, text turns, a system prompt, plain
 * sampling options), checked field by field and copied as `anthropicRequestSchema` leaves it,
 * without the schema's walk. `undefined` leaves the body to the schema, which names what is wrong.
 */
export function readCommonAnthropicRequest(body: JSONObject): AnthropicRequest | undefined {
  for (const field of OPTIONAL_STRUCTURES) if (body[field] !== undefined) return undefined;
  for (const field of ANTHROPIC_NULLISH_PASS_THROUGH_FIELDS) if (body[field] != null) return undefined;
  const { model, max_tokens: maxTokens } = body;
  if (typeof model !== 'string' || model === '' || !isCount(maxTokens, 1) || !hasCommonScalars(body)) return undefined;
  const messages = readMessages(body.messages);
  const system = body.system === undefined ? undefined : readTextContent(body.system);
  const stopSequences = readStopSequences(body.stop_sequences);
  const metadata = readMetadata(body.metadata);
  const cacheControl = readCacheControl(body.cache_control);
  if (!messages || system === false || stopSequences === false || metadata === false || cacheControl === false) return undefined;
  const request: AnthropicRequest = {
    model,
    max_tokens: maxTokens as number,
    messages,
    system,
    stream: body.stream as boolean | undefined,
    stop_sequences: stopSequences,
    temperature: body.temperature as number | undefined,
    top_p: body.top_p as number | undefined,
    top_k: body.top_k as number | undefined,
    metadata,
    cache_control: cacheControl,
  };
  for (const field of ANTHROPIC_NULLISH_PASS_THROUGH_FIELDS) if (body[field] === null) request[field] = null;
  return request;
}

function hasCommonScalars(body: JSONObject): boolean {
  return (
    isOptionalBoolean(body.stream) &&
    isOptionalInRange(body.temperature, 0, 1) &&
    isOptionalInRange(body.top_p, 0, 1) &&
    isOptionalCount(body.top_k, 0)
  );
}

// User, assistant and system turns of text (no tool use, media or thinking blocks).
function readMessages(messages: JSONValue | undefined): AnthropicMessageParam[] | undefined {
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  const read: AnthropicMessageParam[] = [];
  for (const message of messages) {
    if (!isJSONObject(message)) return undefined;
    const { role } = message;
    if (role !== 'user' && role !== 'assistant' && role !== 'system') return undefined;
    const content = readTextContent(message.content);
    if (content === false) return undefined;
    read.push({ role, content });
  }
  return read;
}

/** A string, or text blocks copied as the schema leaves them; `false` for anything else. */
function readTextContent(content: JSONValue | undefined): string | TextBlock[] | false {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return false;
  const blocks: TextBlock[] = [];
  for (const block of content) {
    if (!isJSONObject(block) || block.type !== 'text' || typeof block.text !== 'string' || block.text === '') return false;
    const cacheControl = readCacheControl(block.cache_control);
    const citations = block.citations;
    if (cacheControl === false || (citations != null && !Array.isArray(citations))) return false;
    blocks.push({ type: 'text', text: block.text, cache_control: cacheControl, citations: citations as unknown[] | null | undefined });
  }
  return blocks;
}

function readCacheControl(value: JSONValue | undefined): CacheControl | false {
  if (value == null) return value;
  if (!isJSONObject(value) || value.type !== 'ephemeral') return false;
  const ttl = value.ttl;
  if (ttl !== undefined && ttl !== '5m' && ttl !== '1h') return false;
  return { type: 'ephemeral', ttl };
}

function readStopSequences(value: JSONValue | undefined): string[] | undefined | false {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return false;
  for (const sequence of value) if (typeof sequence !== 'string') return false;
  return [...(value as string[])];
}

// A strict object in the schema: `user_id` and nothing else.
function readMetadata(value: JSONValue | undefined): AnthropicRequest['metadata'] | false {
  if (value === undefined) return undefined;
  if (!isJSONObject(value) || !isNullishString(value.user_id)) return false;
  for (const key in value) if (key !== 'user_id') return false;
  return { user_id: value.user_id };
}
