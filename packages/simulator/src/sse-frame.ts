/**
 * Where a frame sits in a stream: `token` frames carry generated text and are paced; a `terminal`
 * frame is the first one that ends the stream (scenarios cut before it).
 */
export type SSEFrameKind = 'setup' | 'token' | 'terminal';

/** One Server-Sent Event, already framed as text. */
export type SSEFrame = { kind: SSEFrameKind; text: string };

/** A protocol's stream for one answer: lazily produced frames plus the in-stream error frame. */
export type SimulatedStream = {
  /** Lazy, so a client that goes away stops generation. */
  frames: Iterable<SSEFrame>;
  /** The protocol's in-stream error; it takes the place (and sequence number) of the last frame produced, which is dropped. */
  errorFrame(): string;
  /** The stream's `content-type`: `text/event-stream` unless the protocol frames it otherwise (Gemini's JSON array). */
  contentType?: string;
};

/** `event: <type>` + `data: <json>`; one JSON.stringify per frame. */
export function namedFrame(kind: SSEFrameKind, data: { type: string; [field: string]: unknown }): SSEFrame {
  return { kind, text: `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n` };
}

/** A data-only frame (Chat Completions). */
export function dataFrame(kind: SSEFrameKind, data: unknown): SSEFrame {
  return { kind, text: `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n` };
}
