import type { Codec, EncodeContext, StreamEvent, StreamFramer } from '@signalbox/core';
import { createSSEDecoder, formatSSEFrame } from '@signalbox/sse';
import type { FrameFormat } from './frame-format';
import type { FrameTap } from './frame-tap';
import { refuseUnfinishedEnd } from './refuse-unfinished-end';

/**
 * One stream's translation chain as plain state machines: upstream bytes → SSE messages (or the
 * kind's own framing) → (outbound codec) IR events → (inbound codec) client SSE frames. Constant
 * per-stream state; each chunk is translated and handed on at once. An end the upstream left unfinished is a failure here
 * (`refuseUnfinishedEnd`), never a finished answer in the client's protocol.
 */
export type StreamPipeline = {
  /** Decodes one upstream chunk into IR events. */
  decode(chunk: Uint8Array): StreamEvent[];
  /** Flushes the upstream side at end of body; emits an `error` event if no terminal event came. */
  finishDecoding(): StreamEvent[];
  /** Encodes IR events into client SSE text (one string for all of them). */
  encode(events: readonly StreamEvent[]): string;
  /** Closes the client side; emits a failure terminal if none was sent. */
  finishEncoding(): string;
  /** The client stream's content type when it is not SSE (the inbound encoder's `framing`). */
  contentType?: string;
};

/** `tap` sees every client frame as it is encoded; `formatFrame` makes its text (default: the SSE frame); `framer` is the upstream kind's, else SSE framing. */
export function createStreamPipeline(
  outbound: Codec,
  inbound: Codec,
  context: EncodeContext,
  tap?: FrameTap,
  formatFrame: FrameFormat = formatSSEFrame,
  framer: StreamFramer = createSSEDecoder(),
): StreamPipeline {
  const decoder = outbound.createStreamDecoder();
  const encoder = inbound.createStreamEncoder(context);
  const format = encoder.framing?.format ?? formatFrame;
  const decodeMessages = (messages: ReturnType<typeof framer.push>): StreamEvent[] => {
    if (messages.length === 1) return refuseUnfinishedEnd(decoder.push(messages[0]!));
    const events: StreamEvent[] = [];
    for (const message of messages) events.push(...decoder.push(message));
    return refuseUnfinishedEnd(events);
  };
  return {
    decode: chunk => decodeMessages(framer.push(chunk)),
    finishDecoding() {
      const events = decodeMessages(framer.end());
      events.push(...refuseUnfinishedEnd(decoder.end()));
      return events;
    },
    encode(events) {
      let text = '';
      for (const event of events) {
        for (const message of encoder.push(event)) {
          tap?.observe(message);
          text += format(message);
        }
      }
      return text;
    },
    finishEncoding() {
      let text = '';
      for (const message of encoder.end()) text += format(message);
      return text;
    },
    ...(encoder.framing && { contentType: encoder.framing.contentType }),
  };
}
