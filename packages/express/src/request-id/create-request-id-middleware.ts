import type { Protocol } from '@signalbox/core';
import type { Engine } from '@signalbox/engine';
import type { RequestHandler } from 'express';
import { openRequestContext } from '../context/open-request-context';

export type RequestIdOptions = {
  engine: Engine;
  /** The protocol of the interface this is mounted on; decides the envelope and the request-id headers. */
  protocol: Protocol;
};

/**
 * Opens the request's exchange with the engine, which stamps a fresh id (`req_…`) and the arrival
 * on its clock, and sends the id in the headers its protocol's clients read (the codec's
 * `requestIdHeaders`). Incoming request-id headers are never trusted: ids in logs and bodies are
 * always the gateway's.
 *
 * @example router.post('/v1/messages', createRequestIdMiddleware({ engine, protocol: 'anthropic-messages' }), …)
 */
export function createRequestIdMiddleware(options: RequestIdOptions): RequestHandler {
  const { engine, protocol } = options;
  const codec = engine.registry.codec(protocol);
  return function requestIdMiddleware(request, response, next) {
    openRequestContext(engine, codec, request, response);
    next();
  };
}
