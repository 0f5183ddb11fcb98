import type { Server } from 'node:http';
import type { Engine } from '@signalbox/engine';
import type { WebSocketAttachment } from '@signalbox/express';

/**
 * How long past the grace the server waits for the last answers to reach their clients (a client
 * that stops reading can hold them back forever) before it cuts every connection still open.
 */
const FLUSH_MARGIN_MS = 2_000;

/**
 * Shuts `server` down without leaving a client unsure how its answer ended. The returned function
 * stops accepting connections, lets open requests run for up to `graceMs`, has the engine end the
 * ones still open in their own protocol (503 `SHUTTING_DOWN`; a stream gets its terminal error
 * event after what it already sent) and settle them, and closes each connection once its answer is
 * out (a WebSocket connection after the protocol's error frame). Install it when the server starts: it watches every response for its end.
 */
export function createGracefulClose(
  server: Server,
  engine: Pick<Engine, 'drain'>,
  webSockets?: Pick<WebSocketAttachment, 'close' | 'terminate'>,
): (graceMs: number) => Promise<void> {
  let closing = false;
  // While closing, a connection whose answer is out is closed at once, never kept alive for another request.
  server.on('request', (_request, response) => {
    response.once('finish', () => {
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
  });
  return async graceMs => {
    closing = true;
    // A WebSocket connection gets its protocol's error frame and a close frame once its response is out.
    webSockets?.close();
    const closed = new Promise<void>(resolve => server.close(() => resolve()));
    server.closeIdleConnections();
    const draining = engine.drain(graceMs);
    await withinMs(Promise.all([draining, closed]), graceMs + FLUSH_MARGIN_MS);
    server.closeAllConnections();
    webSockets?.terminate();
    // A stream that was waiting on a client that stopped reading settles once its socket is gone.
    await withinMs(draining, FLUSH_MARGIN_MS);
    await closed;
  };
}

/** Waits for `promise`, but not longer than `ms`. */
async function withinMs(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>(resolve => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
