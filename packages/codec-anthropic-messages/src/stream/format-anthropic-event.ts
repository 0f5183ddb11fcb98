import type { JSONObject, SSEMessage } from '@signalbox/core';

/**
 * One SSE message whose `event:` equals `data.type`: the Anthropic SDKs dispatch on the event name
 * and skip frames without it.
 * @see https://docs.anthropic.com/en/api/messages-streaming
 */
export function formatAnthropicEvent(data: JSONObject & { type: string }): SSEMessage {
  return { event: data.type, data: JSON.stringify(data) };
}
