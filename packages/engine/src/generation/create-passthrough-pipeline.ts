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
  return new PassthroughPipeline(decoder, passthrough, tap, formatFrame, framer);
}

/**
 * One same-protocol stream's pipeline as one object, its steps on the prototype: an open stream
 * (one among a thousand) holds its parts and two fields of state, and no closures of its own.
 */
class PassthroughPipeline implements StreamPipeline {
  /** Frame text made and not yet taken by `encode`. */
  #pending = '';
  /** The terminal or failure frame went out: nothing more does. */
  #terminalForwarded = false;

  readonly #decoder: StreamDecoder;
  readonly #passthrough: PassthroughStream;
  readonly #tap: FrameTap | undefined;
  readonly #formatFrame: FrameFormat;
  readonly #framer: StreamFramer;

  constructor(decoder: StreamDecoder, passthrough: PassthroughStream, tap: FrameTap | undefined, formatFrame: FrameFormat, framer: StreamFramer) {
    this.#decoder = decoder;
    this.#passthrough = passthrough;
    this.#tap = tap;
    this.#formatFrame = formatFrame;
    this.#framer = framer;
  }

  decode(chunk: Uint8Array): StreamEvent[] {
    return this.#watch(this.#framer.push(chunk));
  }

  finishDecoding(): StreamEvent[] {
    const events = this.#watch(this.#framer.end());
    // A terminal the decoder makes up at the end (the stream was cut) was never forwarded.
    for (const event of this.#decoder.end()) events.push(event);
    return events;
  }

  encode(events: readonly StreamEvent[]): string {
    let text = this.#take();
    // A failure met outside the frames (the transport broke): its frame, unless one went out already.
    for (const event of events) if (event.type === 'error') text += this.#fail(event.error);
    return text;
  }

  finishEncoding(): string {
    // The error (and its stack) is built only for a stream that really ended without its terminal.
    return this.#terminalForwarded ? this.#take() : this.#take() + this.#fail(streamEndedEarly());
  }

  #watch(messages: SSEMessage[]): StreamEvent[] {
    const events: StreamEvent[] = [];
    for (const message of messages) {
      // Nothing goes out after the terminal or failure frame, even frames that came in the same chunk.
      if (this.#terminalForwarded) break;
      const watched = this.#decoder.push(message);
      const failure = firstError(watched);
      // A frame the decoder fails on (the upstream's error event, or a frame that does not parse) is
      // never forwarded as written: the protocol's own failure frame goes out in its place.
      if (failure) this.#pending += this.#fail(failure);
      else {
        const forwarded = this.#passthrough.forward(message);
        this.#tap?.observe(forwarded);
        this.#pending += this.#formatFrame(forwarded);
      }
      for (const event of watched) {
        if (event.type === 'response-end') this.#terminalForwarded = true;
        events.push(event);
      }
    }
    return events;
  }

  #take(): string {
    const text = this.#pending;
    this.#pending = '';
    return text;
  }

  #fail(error: GatewayError): string {
    if (this.#terminalForwarded) return '';
    this.#terminalForwarded = true;
    return this.#passthrough.fail(error).map(this.#formatFrame).join('');
  }
}

/** The error of the first `error` event among a frame's events (a plain loop: this runs for every frame). */
function firstError(events: readonly StreamEvent[]): GatewayError | undefined {
  for (const event of events) if (event.type === 'error') return event.error;
  return undefined;
}
