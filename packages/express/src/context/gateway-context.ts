import { GatewayError, type Codec } from '@signalbox/core';
import type { Exchange, Principal } from '@signalbox/engine';
import type { Request } from 'express';

/** Per-request state the middlewares share, kept off the `Request` type so host apps stay untouched. */
export type GatewayContext = {
  requestId: string;
  /** When the request arrived, on the engine's clock. */
  startedAt: number;
  /** The codec whose envelope renders this request's errors (the interface it came in on). */
  codec: Codec;
  /** The engine's exchange for a request the gateway bills and records (absent on the admin API). */
  exchange?: Exchange;
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

/** The exchange of a request; throws if the request-id middleware was not mounted first. */
export function getExchange(request: Request): Exchange {
  const { exchange } = getGatewayContext(request);
  if (!exchange) {
    throw new GatewayError({ code: 'INTERNAL_ERROR', message: 'This route has no gateway exchange (createRequestIdMiddleware() opens it).' });
  }
  return exchange;
}

/** The caller the request's exchange authenticated; throws if the auth middleware did not run first. */
export function getPrincipal(request: Request): Principal {
  const { principal } = getExchange(request);
  if (principal) return principal;
  throw new GatewayError({ code: 'INTERNAL_ERROR', message: 'The request was not authenticated (mount the auth middleware first).' });
}

/** The context if one exists (error handlers must work even when nothing else ran). */
export function findGatewayContext(request: Request): GatewayContext | undefined {
  return contexts.get(request);
}
