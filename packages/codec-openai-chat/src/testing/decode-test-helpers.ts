import type { SSEMessage } from '@switchyard/core';
import { comparableEvents } from '@switchyard/core/testing';
import { createOpenAIChatStreamDecoder } from '../stream/decode-openai-chat-stream';

/** Runs messages through a fresh decoder, then `end()`; errors made comparable. */
export function decodeMessages(messages: readonly SSEMessage[]) {
  const decoder = createOpenAIChatStreamDecoder();
  const events = messages.flatMap(message => decoder.push(message));
  events.push(...decoder.end());
  return comparableEvents(events);
}
