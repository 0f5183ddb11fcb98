import type { SimulatedStream } from './sse-frame';
import type { Exchange } from './track-exchange';

/** Pacing of one stream, in milliseconds. Both 0 means no timers at all. */
export type StreamPacing = { tokenDelayMs: number; firstTokenDelayMs: number };

/** What happens after a few tokens: nothing, a dropped connection, or the protocol's in-stream error. */
export type StreamScenario = 'none' | 'cut' | 'error';

/** How many token frames a `cut`/`error` scenario lets through before it strikes. */
export const SCENARIO_TOKENS = 3;

/**
 * Writes a stream's frames to the response as they are generated. With no delay it writes in a
 * synchronous loop and waits only for 'drain' when the socket pushes back; a closed response ends
 * the loop, which stops generation.
 */
export async function writeSSE(exchange: Exchange, stream: SimulatedStream, pacing: StreamPacing, scenario: StreamScenario) {
  const { response } = exchange;
  response.writeHead(200, { 'content-type': stream.contentType ?? 'text/event-stream', 'cache-control': 'no-cache' });
  let tokens = 0;
  for (const frame of stream.frames) {
    if (exchange.isClosed()) return;
    const strikes = frame.kind === 'terminal' || (frame.kind === 'token' && tokens === SCENARIO_TOKENS);
    if (scenario !== 'none' && strikes) {
      if (scenario === 'cut') return cutConnection(exchange);
      response.end(stream.errorFrame());
      return;
    }
    if (frame.kind === 'token') {
      const delay = pacing.tokenDelayMs + (tokens === 0 ? pacing.firstTokenDelayMs : 0);
      if (delay > 0) await exchange.wait(delay);
      if (exchange.isClosed()) return;
      tokens += 1;
    }
    if (!response.write(frame.text)) await exchange.drain();
  }
  if (!exchange.isClosed()) response.end();
}

/**
 * Ends the TCP connection after what was written so far reaches the client, without finishing the
 * HTTP body: the client sees a transfer cut short (no terminal event, no final chunk).
 */
export function cutConnection(exchange: Exchange): void {
  exchange.markEndedByServer();
  const socket = exchange.response.socket;
  if (socket === null) {
    exchange.response.destroy();
    return;
  }
  socket.end();
}
