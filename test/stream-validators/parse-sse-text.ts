import type { SSEMessage } from '@signalbox/core';
import { decodeSSEChunks } from '@signalbox/sse/testing';

/**
 * Frames SSE text (for example a supertest body) into messages with the production decoder, so
 * validators see exactly what an SDK's parser would: comments dropped, multi-line data joined.
 */
export function parseSSEText(text: string): SSEMessage[] {
  return decodeSSEChunks([new TextEncoder().encode(text)]);
}
