import { createId, type Protocol } from '@signalbox/core';
import type { Engine } from '@signalbox/engine';
import type { RequestHandler, Response } from 'express';
import { setGatewayContext } from '../context/gateway-context';

export type RequestIdOptions = {
  engine: Engine;
  /** The protocol of the interface this is mounted on; decides the envelope and the request-id headers. */
  protocol: Protocol;
};

/**
 * Gives every request a fresh id (`req_…`), sends it in the headers its protocol's clients read
 * (the codec's `requestIdHeaders`), and opens the request's exchange with the engine. Incoming
 * request-id headers are never trusted: ids in logs and bodies are always the gateway's.
 *
 * @example router.post('/v1/messages', createRequestIdMiddleware({ engine, protocol: 'anthropic-messages' }), …)
 */
export function createRequestIdMiddleware(options: RequestIdOptions): RequestHandler {
  const { engine, protocol } = options;
  const codec = engine.registry.codec(protocol);
  return function requestIdMiddleware(request, response, next) {
    const requestId = createId('req_');
    const startedAt = Date.now();
    const exchange = engine.openExchange({ protocol, requestId, startedAt, headers: request.headers });
    setGatewayContext(request, { requestId, startedAt, codec, exchange });
    sendRequestId(response, codec.descriptor.requestIdHeaders, requestId);
    next();
  };
}

/** Sets the request id in each of the given response headers. */
export function sendRequestId(response: Response, headers: readonly string[], requestId: string): void {
  for (const header of headers) response.setHeader(header, requestId);
}
