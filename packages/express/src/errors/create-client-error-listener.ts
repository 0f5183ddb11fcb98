import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayError, type RequestShape, type Protocol } from '@signalbox/core';
import type { Engine } from '@signalbox/engine';
import { requestShapeOfRaw } from './request-shape';

type ParserError = Error & { code?: string; rawPacket?: Buffer };

export type ClientErrorListenerOptions = {
  engine: Engine;
  /**
   * Host paths whose errors use one protocol's envelope whatever the caller sent, e.g. the admin
   * API's mount point: `[{ prefix: '/admin', protocol: 'openai-responses' }]`. Default none.
   */
  envelopes?: readonly { prefix: string; protocol: Protocol }[];
};

/**
 * A `clientError` listener for the host's `http.Server`: requests Node's HTTP parser rejects before
 * Express sees them (a malformed request line, a raw non-ASCII byte in the path, a Content-Length
 * that lies, headers over the size limit, a request slower than the server's `requestTimeout`)
 * still get a JSON envelope with a request id and their own status (400, 431, 408) instead of
 * Node's bare one. The envelope is the caller's, guessed by the codecs from the raw bytes Node
 * could read (its path or headers). A `HEAD` request gets the headers only.
 *
 * @example server.on('clientError', gateway.clientErrorListener)
 */
export function createClientErrorListener(options: ClientErrorListenerOptions) {
  const { engine } = options;
  const { registry } = engine;
  const envelopes = options.envelopes ?? [];
  const codecFor = (shape: RequestShape) => {
    const claimed = envelopes.find(({ prefix }) => shape.path === prefix || shape.path.startsWith(`${prefix}/`));
    return claimed ? registry.codec(claimed.protocol) : registry.guess(shape);
  };
  return function clientErrorListener(error: ParserError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || !socket.writable || answerStarted(socket)) {
      socket.destroy();
      return;
    }
    const raw = error.rawPacket?.toString('latin1').slice(0, 16_384) ?? '';
    const codec = codecFor(requestShapeOfRaw(raw));
    const failure = parserFailure(error.code);
    // No Express request here to keep a context on: the engine stamps the id all the same.
    const { requestId } = engine.openRequest();
    const { status, body } = codec.encodeError(failure, requestId);
    const payload = raw.startsWith('HEAD ') ? '' : JSON.stringify(body);
    const idHeaders = codec.descriptor.requestIdHeaders.map(header => `${header}: ${requestId}\r\n`).join('');
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
        `content-type: application/json\r\n${payload ? `content-length: ${Buffer.byteLength(payload)}\r\n` : ''}` +
        `${idHeaders}connection: close\r\n\r\n${payload}`,
    );
  };
}

/**
 * The refusal for a parser error: headers over Node's size limit (`--max-http-header-size`) → 431;
 * a request whose headers or body did not arrive within the server's `headersTimeout` /
 * `requestTimeout` → 408; anything else → 400.
 */
function parserFailure(code: string | undefined): GatewayError {
  if (code === 'HPE_HEADER_OVERFLOW') return new GatewayError({ code: 'HEADERS_TOO_LARGE', message: 'The request line or headers are too large.' });
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new GatewayError({ code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in full in time.' });
  return new GatewayError({ code: 'INVALID_REQUEST', message: 'The request is not valid HTTP.' });
}

/** Whether an answer is already being written on the socket (then nothing may be added to it: it is only closed). */
function answerStarted(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return current?.headersSent === true;
}
