import { cutConnection } from './write-sse';
import type { Exchange } from './track-exchange';

/** Sends a complete JSON response (one JSON.stringify) with an exact content-length. */
export function writeJson(exchange: Exchange, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (exchange.isClosed()) return;
  const text = Buffer.from(JSON.stringify(body), 'utf8');
  exchange.response.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': String(text.length),
  });
  exchange.response.end(text);
}

/** `[[sim:cut]]` without streaming: announces the full length, sends half the body, drops the connection. */
export function writeCutJson(exchange: Exchange, body: unknown): void {
  if (exchange.isClosed()) return;
  const text = Buffer.from(JSON.stringify(body), 'utf8');
  exchange.response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
  exchange.response.write(text.subarray(0, Math.floor(text.length / 2)));
  cutConnection(exchange);
}
