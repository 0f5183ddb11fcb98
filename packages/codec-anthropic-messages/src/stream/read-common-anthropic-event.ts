import { isJSONObject, type JSONObject } from '@signalbox/core';
import type { AnthropicStreamEvent } from '../schema/anthropic-stream-event-schema';

/**
 * The events nearly every frame of a stream is (a block's delta or stop, `ping`, `message_delta`),
 * checked field by field and copied with only the fields the schema keeps, without the schema's
 * walk. `undefined` leaves the event to the schema, which takes everything else and names what is wrong.
 */
export function readCommonAnthropicEvent(value: JSONObject): AnthropicStreamEvent | undefined {
  switch (value.type) {
    case 'content_block_delta':
      return isIndex(value.index) && isCommonDelta(value.delta)
        ? { type: 'content_block_delta', index: value.index, delta: value.delta }
        : undefined;
    case 'content_block_stop':
      return isIndex(value.index) ? { type: 'content_block_stop', index: value.index } : undefined;
    case 'ping':
      return { type: 'ping' };
    case 'message_delta':
      return readMessageDelta(value);
    default:
      return undefined;
  }
}

type CommonDelta = Extract<AnthropicStreamEvent, { type: 'content_block_delta' }>['delta'];

// The schema keeps the delta whole (unknown keys too), so it is returned as is once its fields check.
function isCommonDelta(delta: unknown): delta is CommonDelta {
  return (
    isJSONObject(delta) &&
    typeof delta.type === 'string' &&
    isNullishString(delta.text) &&
    isNullishString(delta.thinking) &&
    isNullishString(delta.partial_json) &&
    isNullishString(delta.signature)
  );
}

type MessageDelta = Extract<AnthropicStreamEvent, { type: 'message_delta' }>;

function readMessageDelta(value: JSONObject): MessageDelta | undefined {
  const event: MessageDelta = { type: 'message_delta' };
  const delta = value.delta;
  if (delta === null) event.delta = null;
  else if (delta !== undefined) {
    if (!isJSONObject(delta) || !isNullishString(delta.stop_reason) || !isNullishString(delta.stop_sequence))
      return undefined;
    event.delta = pickDefined(delta, ['stop_reason', 'stop_sequence']) as MessageDelta['delta'];
  }
  const usage = value.usage === undefined ? undefined : readUsage(value.usage);
  if (usage === INVALID) return undefined;
  if (value.usage !== undefined) event.usage = usage;
  return event;
}

const INVALID = Symbol('invalid');
const USAGE_COUNTERS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'];
const CACHE_CREATION_COUNTERS = ['ephemeral_5m_input_tokens', 'ephemeral_1h_input_tokens'];
const OUTPUT_DETAIL_COUNTERS = ['thinking_tokens'];

/** The usage object as the schema leaves it: its counters (numbers or null) and nothing else. */
function readUsage(usage: unknown): MessageDelta['usage'] | typeof INVALID {
  const counters = readCounters(usage, USAGE_COUNTERS);
  if (!isJSONObject(counters) || !isJSONObject(usage)) return counters;
  for (const [key, keys] of [['cache_creation', CACHE_CREATION_COUNTERS], ['output_tokens_details', OUTPUT_DETAIL_COUNTERS]] as const) {
    if (usage[key] === undefined) continue;
    const nested = readCounters(usage[key], keys);
    if (nested === INVALID) return INVALID;
    counters[key] = nested;
  }
  return counters as MessageDelta['usage'];
}

/** `null`, or a copy of `value` holding only `keys`, each a finite number or `null`; `INVALID` otherwise. */
function readCounters(value: unknown, keys: readonly string[]): JSONObject | null | typeof INVALID {
  if (value === null) return null;
  if (!isJSONObject(value)) return INVALID;
  for (const key of keys) if (!isNullishNumber(value[key])) return INVALID;
  return pickDefined(value, keys);
}

function pickDefined(value: JSONObject, keys: readonly string[]): JSONObject {
  const picked: JSONObject = {};
  for (const key of keys) if (value[key] !== undefined) picked[key] = value[key];
  return picked;
}

const isIndex = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isNullishString = (value: unknown): boolean => value == null || typeof value === 'string';
const isNullishNumber = (value: unknown): boolean => value == null || Number.isFinite(value);
