import type { FrameSink } from '@signalbox/engine';
import type { WebSocket } from 'ws';

/** The TCP socket under a WebSocket, as far as batching writes goes. */
export type Corkable = { cork(): void; uncork(): void };

/**
 * Ends each WebSocket frame's text in one sink write (several frames may come in one): U+001E, the
 * record separator of JSON text sequences (RFC 7464), which JSON text never holds unescaped.
 */
export const FRAME_SEPARATOR = '\u001e';

/**
 * Frames go out uncompressed even on a connection that negotiated permessage-deflate (RFC 7692
 * lets each message choose): compressing every event costs about three times the CPU of the whole
 * response served over SSE (scripts/bench/measure-web-socket.mjs), for frames of a few hundred bytes.
 */
export const UNCOMPRESSED = { compress: false } as const;

/**
 * A `FrameSink` over a WebSocket: each frame of a write is sent as one text frame, and a write
 * reports a full buffer once the socket holds `highWaterMark` bytes or more unsent, so the stream
 * stops reading its upstream until every frame sent so far is written out (a slow reader holds at
 * most about that much). `drained()` rejects once the socket failed or closed. The frames of one
 * write leave in one write to `connection` (the TCP socket under the WebSocket, corked around
 * them): one system call where a frame each would cost one, within the same turn.
 */
export function createWebSocketSink(socket: WebSocket, connection: Corkable, highWaterMark: number): FrameSink {
  let sent = 0;
  let written = 0;
  let failure: Error | undefined;
  let waiter: { resolve(): void; reject(error: Error): void } | undefined;
  const onWritten = (error?: Error) => {
    written += 1;
    if (error) failure ??= error;
    if (!waiter || (written < sent && !failure)) return;
    const { resolve, reject } = waiter;
    waiter = undefined;
    if (failure) reject(failure);
    else resolve();
  };
  return {
    write(text) {
      connection.cork();
      let start = 0;
      for (let end = text.indexOf(FRAME_SEPARATOR); end !== -1; end = text.indexOf(FRAME_SEPARATOR, start)) {
        sent += 1;
        socket.send(text.slice(start, end), UNCOMPRESSED, onWritten);
        start = end + 1;
      }
      connection.uncork();
      return socket.bufferedAmount < highWaterMark;
    },
    drained() {
      if (failure) return Promise.reject(failure);
      if (written === sent) return Promise.resolve();
      return new Promise((resolve, reject) => (waiter = { resolve, reject }));
    },
  };
}
