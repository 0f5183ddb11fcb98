import type { SSEMessage } from '@signalbox/core';
import { createSSEDecoder } from '@signalbox/sse';
import type { FrameSink } from '../generation/frame-sink';

export type ArrayFrameSink = FrameSink & {
  /** Every `write`, in order, as written. */
  readonly writes: string[];
  /** Times the pipe waited for `drained()`. */
  drains: number;
  /** Everything written, as one string. */
  text(): string;
  /** Everything written, framed back into SSE messages. */
  messages(): SSEMessage[];
};

/**
 * A `FrameSink` that keeps what it is given. With `backpressure`, every write reports a full
 * buffer, so the pipe must wait on `drained()` (which resolves at once) before writing again.
 */
export function createArrayFrameSink(options: { backpressure?: boolean } = {}): ArrayFrameSink {
  const writes: string[] = [];
  const sink: ArrayFrameSink = {
    writes,
    drains: 0,
    write(text) {
      writes.push(text);
      return !options.backpressure;
    },
    async drained() {
      sink.drains += 1;
    },
    text: () => writes.join(''),
    messages() {
      const decoder = createSSEDecoder();
      return [...decoder.push(new TextEncoder().encode(sink.text())), ...decoder.end()];
    },
  };
  return sink;
}
