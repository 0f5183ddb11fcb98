import {
  streamEndedEarly,
  type GatewayError,
  type PassthroughStream,
  type SSEMessage,
  type StreamDecoder,
  type StreamEvent,
  type StreamFramer,
} from '@signalbox/core';
import { createSSEDecoder, formatSSEFrame } from '@signalbox/sse';
import type { StreamPipeline } from './create-stream-pipeline';
import type { FrameFormat } from './frame-format';
import type { FrameTap } from './frame-tap';

/**
 * The same-protocol pipeline: every upstream frame is forwarded as the upstream wrote it (but for
 * the client's model ID), while the upstream codec's decoder only watches — for the commit point,
 * usage and the terminal event. A frame the decoder fails on, an upstream that stops without a
 * terminal event, or a transport failure gets the protocol's own failure frame after what was
 * already forwarded (a 502 `UPSTREAM_FAILED` for a frame that does not parse); nothing follows the
 * terminal or failure frame. `framer` is the upstream kind's, else SSE framing.
 */
export function createPassthroughPipeline(
  decoder: StreamDecoder,
  passthrough: PassthroughStream,
  tap?: FrameTap,
  formatFrame: FrameFormat = formatSSEFrame,
  framer: StreamFramer = createSSEDecoder(),
): StreamPipeline {
  let pending = '';
  let terminalForwarded = false;
  const watch = (messages: SSEMessage[]): StreamEvent[] => {
    const events: StreamEvent[] = [];
    for (const message of messages) {
      // Nothing goes out after the terminal or failure frame, even frames that came in the same chunk.
      if (terminalForwarded) break;
      const watched = decoder.push(message);
      const failure = firstError(watched);
      // A frame the decoder fails on (the upstream's error event, or a frame that does not parse) is
      // never forwarded as written: the protocol's own failure frame goes out in its place.
      if (failure) pending += fail(failure);
      else {
        const forwarded = passthrough.forward(message);
        tap?.observe(forwarded);
        pending += formatFrame(forwarded);
      }
      for (const event of watched) {
        if (event.type === 'response-end') terminalForwarded = true;
        events.push(event);
      }
    }
    return events;
  };
  const take = (): string => {
    const text = pending;
    pending = '';
    return text;
  };
  const fail = (error: GatewayError): string => {
    if (terminalForwarded) return '';
    terminalForwarded = true;
    return passthrough.fail(error).map(formatFrame).join('');
  };
  return {
    decode: chunk => watch(framer.push(chunk)),
    finishDecoding() {
      const events = watch(framer.end());
      // A terminal the decoder makes up at the end (the stream was cut) was never forwarded.
      for (const event of decoder.end()) events.push(event);
      return events;
    },
    encode(events) {
      let text = take();
      // A failure met outside the frames (the transport broke): its frame, unless one went out already.
      for (const event of events) if (event.type === 'error') text += fail(event.error);
      return text;
    },
    finishEncoding() {
      // The error (and its stack) is built only for a stream that really ended without its terminal.
      return terminalForwarded ? take() : take() + fail(streamEndedEarly());
    },
  };
}

/** The error of the first `error` event among a frame's events (a plain loop: this runs for every frame). */
function firstError(events: readonly StreamEvent[]): GatewayError | undefined {
  for (const event of events) if (event.type === 'error') return event.error;
  return undefined;
}
