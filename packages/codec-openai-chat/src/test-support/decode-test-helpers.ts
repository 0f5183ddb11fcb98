import type { SSEMessage, StreamEvent } from '@switchyard/core';
import { createOpenAIChatStreamDecoder } from '../stream/decode-openai-chat-stream';

/** Errors compared by what they say, not by object identity. */
export function comparable(events: StreamEvent[]) {
  return events.map(event =>
    event.type === 'error'
      ? { type: 'error' as const, code: event.error.code, message: event.error.message, upstream: event.error.upstream }
      : event,
  );
}

/** Runs messages through a fresh decoder, then `end()`; errors made comparable. */
export function decodeMessages(messages: readonly SSEMessage[]) {
  const decoder = createOpenAIChatStreamDecoder();
  const events = messages.flatMap(message => decoder.push(message));
  events.push(...decoder.end());
  return comparable(events);
}
