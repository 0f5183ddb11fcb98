import type { Socket } from 'node:net';
import { createId, GatewayError, type Codec } from '@switchyard/core';

/**
 * A `clientError` listener for the host's `http.Server`: requests Node's HTTP parser rejects before
 * Express sees them (a malformed request line, a raw non-ASCII byte in the path, a Content-Length
 * that lies, headers over the size limit) still get a JSON envelope with a request id instead of
 * Node's bare `400`.
 *
 * @example server.on('clientError', createClientErrorListener({ codec: openAIResponsesCodec }))
 */
export function createClientErrorListener(options: { codec: Codec }) {
  return function clientErrorListener(error: Error & { code?: string }, socket: Socket): void {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const failure = new GatewayError({
      code: tooLarge ? 'REQUEST_TOO_LARGE' : 'INVALID_REQUEST',
      message: tooLarge ? 'The request line or headers are too large.' : 'The request is not valid HTTP.',
    });
    const requestId = createId('req_');
    const { status, body } = options.codec.encodeError(failure, requestId);
    const payload = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Too Large' : 'Bad Request'}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n` +
        `x-request-id: ${requestId}\r\nconnection: close\r\n\r\n${payload}`,
    );
  };
}
