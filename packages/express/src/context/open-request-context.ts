import type { Codec, EndpointFacts } from '@signalbox/core';
import type { Engine, Exchange } from '@signalbox/engine';
import type { Request, Response } from 'express';
import { setGatewayContext, type GatewayContext } from './gateway-context';

/**
 * Where every request the gateway answers gets its identity: a fresh id and its arrival, stamped
 * by the engine on its own clock, with the exchange that bills and records it (unless `recorded` is
 * false: the admin API, metrics, a path the gateway does not claim). The context is kept for the
 * other middlewares, and the id sent in the headers the codec's clients read.
 */
export function openRequestContext(
  engine: Engine,
  codec: Codec,
  request: Request,
  response: Response,
  options?: { endpoint: EndpointFacts },
): GatewayContext & { exchange: Exchange };
export function openRequestContext(engine: Engine, codec: Codec, request: Request, response: Response, options: { recorded: boolean }): GatewayContext;
export function openRequestContext(
  engine: Engine,
  codec: Codec,
  request: Request,
  response: Response,
  options?: { recorded?: boolean; endpoint?: EndpointFacts },
): GatewayContext {
  const opening = { protocol: codec.protocol, headers: request.headers, mountPath: request.baseUrl, ...(options?.endpoint && { endpoint: options.endpoint }) };
  const exchange = options?.recorded === false ? undefined : engine.openExchange(opening);
  const { requestId, startedAt } = exchange ?? engine.openRequest();
  sendRequestId(response, codec.descriptor.requestIdHeaders, requestId);
  return setGatewayContext(request, exchange ? { requestId, startedAt, codec, exchange } : { requestId, startedAt, codec });
}

/** Sets the request id in each of the given response headers. */
export function sendRequestId(response: Response, headers: readonly string[], requestId: string): void {
  for (const header of headers) response.setHeader(header, requestId);
}
