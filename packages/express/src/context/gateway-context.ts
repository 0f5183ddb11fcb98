import { GatewayError, type Protocol } from '@switchyard/core';
import type { Principal } from '@switchyard/engine';
import type { Request } from 'express';

/** Per-request state the middlewares share, kept off the `Request` type so host apps stay untouched. */
export type GatewayContext = {
  requestId: string;
  startedAt: number;
  /** The interface the request came in on; decides the error envelope. */
  protocol: Protocol;
  principal?: Principal;
  /** Set when the request is recorded elsewhere (the engine took over), so the error handler does not record it. */
  recordedElsewhere?: boolean;
};

const contexts = new WeakMap<Request, GatewayContext>();

export function setGatewayContext(request: Request, context: GatewayContext): GatewayContext {
  contexts.set(request, context);
  return context;
}

/** The context of a request; throws if the request-id middleware was not mounted first. */
export function getGatewayContext(request: Request): GatewayContext {
  const context = contexts.get(request);
  if (!context) {
    throw new GatewayError({
      code: 'INTERNAL_ERROR',
      message: 'Gateway middlewares are mounted out of order: createRequestIdMiddleware() must come first.',
    });
  }
  return context;
}

/** The context if one exists (error handlers must work even when nothing else ran). */
export function findGatewayContext(request: Request): GatewayContext | undefined {
  return contexts.get(request);
}
