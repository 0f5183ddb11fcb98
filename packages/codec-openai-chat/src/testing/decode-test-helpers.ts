import type { SSEMessage } from '@signalbox/core';
import { decodeStreamMessages } from '@signalbox/core/testing';
import { createOpenAIChatStreamDecoder } from '../stream/decode-openai-chat-stream';

/** Runs messages through a fresh decoder, then `end()`; errors made comparable. */
export function decodeMessages(messages: readonly SSEMessage[]) {
  return decodeStreamMessages(createOpenAIChatStreamDecoder(), messages);
}
