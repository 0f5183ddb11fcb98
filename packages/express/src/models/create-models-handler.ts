import { createId, type Codec } from '@signalbox/core';
import type { Engine } from '@signalbox/engine';
import type { RequestHandler } from 'express';
import { setGatewayContext } from '../context/gateway-context';
import { sendRequestId } from '../request-id/create-request-id-middleware';

export type ModelsHandlerOptions = {
  engine: Engine;
  /** The codec whose models path this is; absent for a path several codecs share (the caller's credential picks). */
  codec?: Codec;
};

/**
 * `GET /v1/models`: the routes the caller's key may use, in config order, in the list shape of the
 * codec whose path this is — or, on a path several codecs share, of the protocol whose credential
 * the caller presented (a codec's own key header, e.g. `x-api-key`, else the Bearer interfaces').
 *
 * @example router.get('/v1/models', createModelsHandler({ engine }))
 */
export function createModelsHandler(options: ModelsHandlerOptions): RequestHandler {
  const { engine } = options;
  return async function modelsHandler(request, response) {
    const codec = options.codec ?? engine.registry.codecForCredentials(new Set(Object.keys(request.headers)));
    const requestId = createId('req_');
    const startedAt = Date.now();
    const exchange = engine.openExchange({ protocol: codec.protocol, requestId, startedAt });
    setGatewayContext(request, { requestId, startedAt, codec, exchange });
    sendRequestId(response, codec.descriptor.requestIdHeaders, requestId);
    await exchange.authenticate(request.headers);
    response.status(200).json(exchange.listModels());
  };
}
