import type { IncomingMessage } from 'node:http';
import { GatewayError } from '@switchyard/core';

export type BodyLimits = {
  /** Largest accepted body in bytes. */
  limitBytes: number;
  /** Longest the whole body may take to arrive, counted from this call, in ms. */
  timeoutMs: number;
};

/**
 * Reads a request body, refusing it as early as the refusal can be known, so that no client can
 * make the gateway read (or wait for) more than the limits allow:
 * - a declared `Content-Length` over the limit is refused before a byte of the body is read;
 * - a body without one (chunked) is counted as it arrives and refused the moment it passes the limit;
 * - a body that has not arrived in full within `timeoutMs` (a stalled or trickling client) is refused
 *   with `REQUEST_TIMEOUT`.
 *
 * On a refusal the body is left unread (nothing more is pulled off the socket): the caller answers
 * and closes the connection. A client that goes away mid-body rejects with `INVALID_REQUEST`.
 *
 * @throws GatewayError `REQUEST_TOO_LARGE` (413), `REQUEST_TIMEOUT` (408) or `INVALID_REQUEST` (400).
 */
export function readLimitedBody(request: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limits.limitBytes) return Promise.reject(tooLarge(limits.limitBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (outcome: { body: Buffer } | { error: GatewayError }) => {
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).off('aborted', onAborted).off('error', onAborted).off('close', onClose);
      if ('body' in outcome) return resolve(outcome.body);
      request.pause();
      reject(outcome.error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.limitBytes) return finish({ error: tooLarge(limits.limitBytes) });
      chunks.push(chunk);
    };
    const onEnd = () => finish({ body: Buffer.concat(chunks, received) });
    const onAborted = () => finish({ error: incomplete() });
    // `close` before `end` is a client that went away; after `end`, `finish` has already run.
    const onClose = () => finish({ error: incomplete() });
    const timer = setTimeout(() => finish({ error: timedOut(limits.timeoutMs) }), limits.timeoutMs);
    request.on('data', onData).once('end', onEnd).once('aborted', onAborted).once('error', onAborted).once('close', onClose);
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
