import { isJSONObject, isNullishString, type JSONObject } from '@signalbox/core';
import type { AnthropicStreamEvent } from '../schema/anthropic-stream-event-schema';
import { readAnthropicUsage } from '../usage/read-anthropic-usage';

type EventOf<Type extends AnthropicStreamEvent['type']> = Extract<AnthropicStreamEvent, { type: Type }>;

/**
 * The events nearly every frame of a stream is (a block's delta or stop, `ping`, `message_delta`),
 * checked field by field and copied with the fields the schema keeps, without the schema's walk.
 * `undefined` leaves the event to the schema, which takes everything else and names what is wrong.
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

// The schema keeps the delta whole (unknown keys too), so it is returned as is once its fields check.
function isCommonDelta(delta: unknown): delta is EventOf<'content_block_delta'>['delta'] {
  return (
    isJSONObject(delta) &&
    typeof delta.type === 'string' &&
    isNullishString(delta.text) &&
    isNullishString(delta.thinking) &&
    isNullishString(delta.partial_json) &&
    isNullishString(delta.signature)
  );
}

function readMessageDelta(value: JSONObject): EventOf<'message_delta'> | undefined {
  const delta = value.delta;
  if (delta != null && !isJSONObject(delta)) return undefined;
  const stopReason = delta?.stop_reason;
  const stopSequence = delta?.stop_sequence;
  if (!isNullishString(stopReason) || !isNullishString(stopSequence)) return undefined;
  const usage = readAnthropicUsage(value.usage);
  if (usage === false) return undefined;
  return {
    type: 'message_delta',
    delta: delta == null ? delta : { stop_reason: stopReason, stop_sequence: stopSequence },
    usage,
  };
}

const isIndex = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
