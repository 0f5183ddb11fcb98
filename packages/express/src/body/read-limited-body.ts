import type { IncomingMessage } from 'node:http';
import { GatewayError } from '@signalbox/core';
import type { BodyDecoder } from './create-body-decoder';

export type BodyLimits = {
  /** Largest accepted body in bytes: as sent, and (for a compressed body) once decoded. */
  limitBytes: number;
  /** Longest the whole body may take to arrive, counted from this call, in ms. */
  timeoutMs: number;
};

/**
 * Reads a request body, refusing it as early as the refusal can be known, so that no client can
 * make the gateway read (or wait for, or inflate) more than the limits allow:
 * - a declared `Content-Length` over the limit is refused before a byte of the body is read;
 * - a body without one (chunked) is counted as it arrives and refused the moment it passes the limit;
 * - a compressed body (with a `decoder`) is decoded as it arrives, and its decoded bytes are counted
 *   too: it is refused, and the decoder stopped, the moment they pass the limit, so a decompression
 *   bomb costs no more memory than an uncompressed body at the limit;
 * - a body that has not arrived in full within `timeoutMs` (a stalled or trickling client) is refused
 *   with `REQUEST_TIMEOUT`.
 *
 * On a refusal the body is left unread (nothing more is pulled off the socket): the caller answers
 * and closes the connection. A client that goes away mid-body, or a compressed body that does not
 * decode, rejects with `INVALID_REQUEST`.
 *
 * @throws GatewayError `REQUEST_TOO_LARGE` (413), `REQUEST_TIMEOUT` (408) or `INVALID_REQUEST` (400).
 */
export function readLimitedBody(request: IncomingMessage, limits: BodyLimits, decoder?: BodyDecoder): Promise<Buffer> {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limits.limitBytes) {
    decoder?.stream.destroy();
    return Promise.reject(tooLarge(limits.limitBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let kept = 0;
    let settled = false;
    const finish = (outcome: { body: Buffer } | { error: GatewayError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).off('aborted', onAborted).off('error', onAborted).off('close', onClose);
      decoder?.stream.off('data', keep).off('end', onDecoded).off('error', onUndecodable).on('error', () => undefined);
      if ('body' in outcome) return resolve(outcome.body);
      decoder?.stream.destroy();
      request.pause();
      reject(outcome.error);
    };
    const keep = (chunk: Buffer) => {
      kept += chunk.length;
      if (kept > limits.limitBytes) return finish({ error: tooLarge(limits.limitBytes) });
      chunks.push(chunk);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.limitBytes) return finish({ error: tooLarge(limits.limitBytes) });
      if (decoder) decoder.stream.write(chunk);
      else keep(chunk);
    };
    const onDecoded = () => finish({ body: Buffer.concat(chunks, kept) });
    const onEnd = () => (decoder ? decoder.stream.end() : onDecoded());
    const onAborted = () => finish({ error: incomplete() });
    const onUndecodable = (error: Error) => finish({ error: undecodable(decoder!.encoding, error) });
    // `close` before `end` is a client that went away; after `end`, the body is complete (or being decoded).
    const onClose = () => {
      if (!request.complete) finish({ error: incomplete() });
    };
    const timer = setTimeout(() => finish({ error: timedOut(limits.timeoutMs) }), limits.timeoutMs);
    decoder?.stream.on('data', keep).once('end', onDecoded).once('error', onUndecodable);
    // `on`, not `once`: `finish` removes every listener anyway, and `once` wraps each in a closure of its own.
    request.on('data', onData).on('end', onEnd).on('aborted', onAborted).on('error', onAborted).on('close', onClose);
  });
}

/** The `Content-Length` the client declared, when it declared a valid one (Node's parser has checked its syntax). */
function declaredLength(request: IncomingMessage): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined || request.headers['transfer-encoding'] !== undefined) return undefined;
  const length = Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

function tooLarge(limitBytes: number): GatewayError {
  return new GatewayError({ code: 'REQUEST_TOO_LARGE', message: `The request body is larger than the limit of ${limitBytes} bytes.` });
}

function timedOut(timeoutMs: number): GatewayError {
  return new GatewayError({ code: 'REQUEST_TIMEOUT', message: `The request body did not arrive in full within ${timeoutMs} ms.` });
}

function incomplete(): GatewayError {
  return new GatewayError({ code: 'INVALID_REQUEST', message: 'The request body was incomplete.' });
}

function undecodable(encoding: string, cause: Error): GatewayError {
  return new GatewayError({ code: 'INVALID_REQUEST', message: `The request body does not decode as ${encoding}, the Content-Encoding it was sent with.`, cause });
}
