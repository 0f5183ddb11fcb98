import { createId, type Protocol } from '@switchyard/core';
import type { RequestHandler } from 'express';
import { setGatewayContext } from '../context/gateway-context';

export type RequestIdOptions = {
  /** The interface of the routes this is mounted on; decides the envelope of any error. */
  protocol: Protocol;
};

/**
 * Gives every request a fresh id (`req_…`), sends it as `x-request-id` (and `request-id` on the
 * Messages interface, where Anthropic's SDK reads it), and opens the per-request context.
 * Incoming request-id headers are never trusted: ids in logs and bodies are always the gateway's.
 *
 * @example router.post('/v1/messages', createRequestIdMiddleware({ protocol: 'anthropic-messages' }), …)
 */
export function createRequestIdMiddleware(options: RequestIdOptions): RequestHandler {
  const { protocol } = options;
  return function requestIdMiddleware(request, response, next) {
    const requestId = createId('req_');
    setGatewayContext(request, { requestId, startedAt: Date.now(), protocol });
    response.setHeader('x-request-id', requestId);
    if (protocol === 'anthropic-messages') response.setHeader('request-id', requestId);
    next();
  };
}
