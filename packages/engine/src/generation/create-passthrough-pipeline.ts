import {
  GatewayError,
  type PassthroughStream,
  type SSEMessage,
  type StreamDecoder,
  type StreamEvent,
} from '@switchyard/core';
import { createSSEDecoder, formatSSEFrame } from '@switchyard/sse';
import type { StreamPipeline } from './create-stream-pipeline';

/**
 * The same-protocol pipeline: every upstream frame is forwarded as the upstream wrote it (but for
 * the client's model ID), while the upstream codec's decoder only watches — for the commit point,
 * usage and the terminal event. When the upstream stops without a terminal event, or the transport
 * fails, the protocol's own failure frame follows what was already forwarded.
 */
export function createPassthroughPipeline(
  decoder: StreamDecoder,
  passthrough: PassthroughStream,
): StreamPipeline {
  const framer = createSSEDecoder();
  let pending = '';
  let terminalForwarded = false;
  const watch = (messages: SSEMessage[]): StreamEvent[] => {
    const events: StreamEvent[] = [];
    for (const message of messages) {
      const watched = decoder.push(message);
      pending += formatSSEFrame(passthrough.forward(message));
      for (const event of watched) {
        if (event.type === 'response-end' || event.type === 'error') terminalForwarded = true;
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
  const failure = (error: GatewayError): string => {
    if (terminalForwarded) return '';
    terminalForwarded = true;
    return passthrough.fail(error).map(formatSSEFrame).join('');
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
      for (const event of events) if (event.type === 'error') text += failure(event.error);
      return text;
    },
    finishEncoding() {
      return (
        take() +
        failure(
          new GatewayError({
            code: 'UPSTREAM_FAILED',
            message: 'The upstream stream ended before its terminal event.',
          }),
        )
      );
    },
  };
}
