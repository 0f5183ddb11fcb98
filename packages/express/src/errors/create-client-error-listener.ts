import type { Socket } from 'node:net';
import { createId, GatewayError, type Codec, type Protocol } from '@switchyard/core';
import { guessProtocolFromRaw } from './guess-protocol';

type ParserError = Error & { code?: string; rawPacket?: Buffer };

/**
 * A `clientError` listener for the host's `http.Server`: requests Node's HTTP parser rejects before
 * Express sees them (a malformed request line, a raw non-ASCII byte in the path, a Content-Length
 * that lies, headers over the size limit) still get a JSON envelope with a request id instead of
 * Node's bare `400`. The envelope is the caller's: the raw bytes Node could read tell a Messages
 * caller (its path or headers) from an OpenAI one. A `HEAD` request gets the headers only.
 *
 * @example server.on('clientError', createClientErrorListener({ codecs }))
 */
export function createClientErrorListener(options: { codecs: Partial<Record<Protocol, Codec>> }) {
  return function clientErrorListener(error: ParserError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const raw = error.rawPacket?.toString('latin1').slice(0, 16_384) ?? '';
    const protocol = guessProtocolFromRaw(raw);
    const codec = options.codecs[protocol] ?? options.codecs['openai-responses'] ?? Object.values(options.codecs)[0]!;
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const failure = new GatewayError({
      code: tooLarge ? 'REQUEST_TOO_LARGE' : 'INVALID_REQUEST',
      message: tooLarge ? 'The request line or headers are too large.' : 'The request is not valid HTTP.',
    });
    const requestId = createId('req_');
    const { status, body } = codec.encodeError(failure, requestId);
    const payload = raw.startsWith('HEAD ') ? '' : JSON.stringify(body);
    const idHeaders = `x-request-id: ${requestId}\r\n${codec.protocol === 'anthropic-messages' ? `request-id: ${requestId}\r\n` : ''}`;
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Too Large' : 'Bad Request'}\r\n` +
        `content-type: application/json\r\n${payload ? `content-length: ${Buffer.byteLength(payload)}\r\n` : ''}` +
        `${idHeaders}connection: close\r\n\r\n${payload}`,
    );
  };
}
