import type { Socket } from 'node:net';
import { createId, GatewayError, type RequestShape, type Protocol } from '@switchyard/core';
import type { Engine } from '@switchyard/engine';
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
 * that lies, headers over the size limit) still get a JSON envelope with a request id instead of
 * Node's bare `400`. The envelope is the caller's, guessed by the codecs from the raw bytes Node
 * could read (its path or headers). A `HEAD` request gets the headers only.
 *
 * @example server.on('clientError', gateway.clientErrorListener)
 */
export function createClientErrorListener(options: ClientErrorListenerOptions) {
  const { registry } = options.engine;
  const envelopes = options.envelopes ?? [];
  const codecFor = (shape: RequestShape) => {
    const claimed = envelopes.find(({ prefix }) => shape.path === prefix || shape.path.startsWith(`${prefix}/`));
    return claimed ? registry.codec(claimed.protocol) : registry.guess(shape);
  };
  return function clientErrorListener(error: ParserError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const raw = error.rawPacket?.toString('latin1').slice(0, 16_384) ?? '';
    const codec = codecFor(requestShapeOfRaw(raw));
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const failure = new GatewayError({
      code: tooLarge ? 'REQUEST_TOO_LARGE' : 'INVALID_REQUEST',
      message: tooLarge ? 'The request line or headers are too large.' : 'The request is not valid HTTP.',
    });
    const requestId = createId('req_');
    const { status, body } = codec.encodeError(failure, requestId);
    const payload = raw.startsWith('HEAD ') ? '' : JSON.stringify(body);
    const idHeaders = codec.descriptor.requestIdHeaders.map(header => `${header}: ${requestId}\r\n`).join('');
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Too Large' : 'Bad Request'}\r\n` +
        `content-type: application/json\r\n${payload ? `content-length: ${Buffer.byteLength(payload)}\r\n` : ''}` +
        `${idHeaders}connection: close\r\n\r\n${payload}`,
    );
  };
}
