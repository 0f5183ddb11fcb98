import type { SSEMessage } from '@signalbox/core';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** Incremental SSE framing: feed byte chunks as they arrive, get whole messages back. */
export interface SSEDecoder {
  /** Decodes one chunk; chunk boundaries may fall anywhere, even inside a UTF-8 character. */
  push(chunk: Uint8Array | string): SSEMessage[];
  /** Flushes a last frame that arrived without its closing blank line. */
  end(): SSEMessage[];
}

/**
 * A push-based SSE decoder over eventsource-parser. A plain state machine driven by the transport:
 * no Web Streams, one `TextDecoder` in streaming mode so split multi-byte characters survive.
 */
export function createSSEDecoder(): SSEDecoder {
  const textDecoder = new TextDecoder('utf-8');
  let pending: SSEMessage[] = [];
  const parser = createParser({
    onEvent(event: EventSourceMessage) {
      pending.push({ event: event.event, data: event.data, id: event.id });
    },
  });
  const take = (): SSEMessage[] => {
    const messages = pending;
    pending = [];
    return messages;
  };
  return {
    push(chunk) {
      parser.feed(typeof chunk === 'string' ? chunk : textDecoder.decode(chunk, { stream: true }));
      return take();
    },
    end() {
      // Closing blank lines dispatch a frame the upstream left open; with nothing pending they are no-ops.
      parser.feed(`${textDecoder.decode()}\n\n`);
      parser.reset();
      return take();
    },
  };
}
