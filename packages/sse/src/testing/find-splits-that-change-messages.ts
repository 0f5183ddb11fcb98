import type { SSEMessage } from '@signalbox/core';
import { decodeSSEChunks, splitAt } from './fixture-helpers';

/** Frames one body, given as chunks, into SSE messages. */
export type Framer = (chunks: readonly Uint8Array[]) => SSEMessage[];

/**
 * The offsets at which cutting `bytes` into two chunks frames other SSE messages than the whole
 * body does (none, for a correct decoder). A codec's stream decoder only ever sees these messages,
 * one `push` each, so the same messages at every cut means the same events: checking them here
 * proves the codec chunk-independent without running it once per offset. `frame` is the
 * production decoder unless a test brings another.
 */
export function findSplitsThatChangeMessages(bytes: Uint8Array, frame: Framer = decodeSSEChunks): number[] {
  const whole = frame([bytes]);
  const differing: number[] = [];
  for (let offset = 1; offset < bytes.length; offset++) {
    if (!sameMessages(frame(splitAt(bytes, [offset])), whole)) differing.push(offset);
  }
  return differing;
}

function sameMessages(actual: readonly SSEMessage[], expected: readonly SSEMessage[]): boolean {
  if (actual.length !== expected.length) return false;
  return actual.every((message, index) => {
    const other = expected[index]!;
    return message.data === other.data && message.event === other.event && message.id === other.id && message.parsed === other.parsed;
  });
}
