import type { JSONObject, SSEMessage } from '@switchyard/core';

/** One SSE message whose `event:` equals `data.type`: Anthropic SDKs skip frames without it (pitfall 1). */
export function formatAnthropicEvent(data: JSONObject & { type: string }): SSEMessage {
  return { event: data.type, data: JSON.stringify(data) };
}
