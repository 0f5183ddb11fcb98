import type { SSEMessage } from '@signalbox/core';
import { decodeStreamMessages } from '@signalbox/core/testing';
import { createGeminiStreamDecoder } from '../stream/decode-gemini-stream';

/** Runs messages through a fresh decoder, then `end()`; errors made comparable. */
export function decodeMessages(messages: readonly SSEMessage[]) {
  return decodeStreamMessages(createGeminiStreamDecoder(), messages);
}
