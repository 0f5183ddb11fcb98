import type { FrameSink } from '@signalbox/engine';
import type { WebSocket } from 'ws';

/**
 * Ends each WebSocket frame's text in one sink write (several frames may come in one): U+001E, the
 * record separator of JSON text sequences (RFC 7464), which JSON text never holds unescaped.
 */
export const FRAME_SEPARATOR = '\u001e';

/**
 * A `FrameSink` over a WebSocket: each frame of a write is sent as one text frame, and a write
 * reports a full buffer once the socket holds `highWaterMark` bytes or more unsent, so the stream
 * stops reading its upstream until every frame sent so far is written out (a slow reader holds at
 * most about that much). `drained()` rejects once the socket failed or closed.
 */
export function createWebSocketSink(socket: WebSocket, highWaterMark: number): FrameSink {
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
      let start = 0;
      for (let end = text.indexOf(FRAME_SEPARATOR); end !== -1; end = text.indexOf(FRAME_SEPARATOR, start)) {
        sent += 1;
        socket.send(text.slice(start, end), onWritten);
        start = end + 1;
      }
      return socket.bufferedAmount < highWaterMark;
    },
    drained() {
      if (failure) return Promise.reject(failure);
      if (written === sent) return Promise.resolve();
      return new Promise((resolve, reject) => (waiter = { resolve, reject }));
    },
  };
}
