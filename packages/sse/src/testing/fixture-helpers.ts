import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SSEMessage, StreamDecoder } from '@signalbox/core';
import { decodeStreamMessages, type ComparableEvent } from '@signalbox/core/testing';
import { createSSEDecoder } from '../create-sse-decoder';

/** Reads a fixture's exact bytes (no newline conversion). */
export function readFixture(directory: string, name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(directory, name)));
}

/** Reads and parses a JSON fixture (a recorded response or error body). */
export function readJSONFixture(directory: string, name: string): unknown {
  return JSON.parse(readFileSync(join(directory, name), 'utf8'));
}

/** Cuts bytes at the given offsets: `splitAt(b, [3, 10])` → `[b[0..3), b[3..10), b[10..)]`. */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const offset of [...offsets].sort((a, b) => a - b)) {
    if (offset <= start || offset >= bytes.length) continue;
    chunks.push(bytes.subarray(start, offset));
    start = offset;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/** Cuts bytes into pieces of `size` bytes (the last may be shorter). */
export function splitEvery(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return chunks;
}

/** Frames a sequence of byte chunks into SSE messages with the production decoder. */
export function decodeSSEChunks(chunks: readonly Uint8Array[]): SSEMessage[] {
  const decoder = createSSEDecoder();
  const messages: SSEMessage[] = [];
  for (const chunk of chunks) messages.push(...decoder.push(chunk));
  messages.push(...decoder.end());
  return messages;
}

/**
 * Frames byte chunks into SSE messages and runs them through a stream decoder, then `end()`: one
 * upstream body as the gateway reads it, with errors made comparable. Pass a fresh decoder.
 */
export function decodeStreamChunks(decoder: StreamDecoder, chunks: readonly Uint8Array[]): ComparableEvent[] {
  return decodeStreamMessages(decoder, decodeSSEChunks(chunks));
}
