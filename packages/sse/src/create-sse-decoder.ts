import type { SSEMessage } from '@signalbox/core';
import { createParser, type EventSourceParser } from 'eventsource-parser';

/** Incremental SSE framing: feed byte chunks as they arrive, get whole messages back. */
export interface SSEDecoder {
  /** Decodes one chunk; chunk boundaries may fall anywhere, even inside a UTF-8 character. */
  push(chunk: Uint8Array | string): SSEMessage[];
  /** Flushes a last frame that arrived without its closing blank line. */
  end(): SSEMessage[];
}

/**
 * A push-based SSE decoder over eventsource-parser. A plain state machine driven by the transport:
 * no Web Streams; a streaming `TextDecoder` from the first chunk split inside a character on.
 */
export function createSSEDecoder(): SSEDecoder {
  return new ParserSSEDecoder();
}

const STREAMING = { stream: true } as const;

/**
 * Decodes, statelessly, each chunk that ends on a whole character: nearly all do, a frame ending in
 * a line break. A streaming `TextDecoder` costs several times as much per call and per stream.
 */
const WHOLE_CHUNKS = new TextDecoder('utf-8', { ignoreBOM: true });

/** One object per stream; the parser's own messages are handed on as they are, not copied. */
class ParserSSEDecoder implements SSEDecoder {
  /** Made at the first chunk that ends inside a character, and kept from then on for what it holds back. */
  private textDecoder: InstanceType<typeof TextDecoder> | undefined;
  private atStart = true;
  private pending: SSEMessage[] = [];
  private readonly parser: EventSourceParser = createParser({ onEvent: message => this.pending.push(message) });

  push(chunk: Uint8Array | string): SSEMessage[] {
    this.parser.feed(typeof chunk === 'string' ? chunk : this.decode(chunk));
    return this.take();
  }

  end(): SSEMessage[] {
    // Closing blank lines dispatch a frame the upstream left open; with nothing pending they are no-ops.
    this.parser.feed(`${this.textDecoder?.decode() ?? ''}\n\n`);
    this.parser.reset();
    return this.take();
  }

  /** The chunk's text; a byte order mark opening the stream is dropped, as a streaming decoder does. */
  private decode(chunk: Uint8Array): string {
    if (this.textDecoder === undefined && (chunk.length === 0 || chunk[chunk.length - 1]! < 0x80)) {
      const text = WHOLE_CHUNKS.decode(chunk);
      if (!this.atStart || text === '') return text;
      this.atStart = false;
      return text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
    }
    this.textDecoder ??= new TextDecoder('utf-8', { ignoreBOM: !this.atStart });
    this.atStart = false;
    return this.textDecoder.decode(chunk, STREAMING);
  }

  private take(): SSEMessage[] {
    const messages = this.pending;
    this.pending = [];
    return messages;
  }
}

const BYTE_ORDER_MARK = 0xfeff;
