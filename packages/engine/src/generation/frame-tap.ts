import type { SSEMessage } from '@signalbox/core';

/**
 * Watches the frames a stream sends its client, and may hold the stream's end back: `beforeEnd`
 * runs (and is awaited) after the terminal event is encoded and before any of its text is written,
 * so work the client's next request depends on (keeping the response it continues) is done first.
 */
export type FrameTap = {
  /** Sees every frame as the client will receive it, in order. Must be cheap for ordinary frames. */
  observe(message: SSEMessage): void;
  /** Runs once, when the stream's terminal event is ready to write. Must not reject. */
  beforeEnd(): Promise<void>;
};
