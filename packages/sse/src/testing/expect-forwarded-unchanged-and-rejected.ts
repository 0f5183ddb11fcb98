/// <reference types="jest" />
import type { PassthroughStream, SSEMessage, StreamDecoder } from '@signalbox/core';

/**
 * Asserts how a protocol treats a frame that is not JSON on the passthrough path: the passthrough
 * forwards the frame unchanged (the model rewrite never drops bytes), and the protocol's decoder
 * reports it as exactly one `UPSTREAM_FAILED` (502) error event.
 */
export function expectForwardedUnchangedAndRejected(
  passthrough: PassthroughStream,
  decoder: StreamDecoder,
  malformed: SSEMessage,
): void {
  expect(passthrough.forward(malformed)).toBe(malformed);
  const events = decoder.push(malformed);
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ type: 'error', error: { code: 'UPSTREAM_FAILED', status: 502 } });
}
