import type { Codec } from '@signalbox/core';
import type { Engine } from '@signalbox/engine';
import type { RequestHandler } from 'express';
import { openRequestContext } from '../context/open-request-context';

export type ModelsHandlerOptions = {
  engine: Engine;
  /** The codec whose models path this is; absent for a path several codecs share (the caller's credential picks). */
  codec?: Codec;
};

/**
 * `GET /v1/models`: the routes the caller's key may use, in config order, in the list shape of the
 * codec whose path this is — or, on a path several codecs share, of the protocol whose credential
 * the caller presented (a codec's own key header, e.g. `x-api-key`, else the Bearer interfaces').
 * Its exchange records only a refused key; the list itself is billed nothing.
 *
 * @example router.get('/v1/models', createModelsHandler({ engine }))
 */
export function createModelsHandler(options: ModelsHandlerOptions): RequestHandler {
  const { engine } = options;
  return async function modelsHandler(request, response) {
    const codec = options.codec ?? engine.registry.codecForCredentials(new Set(Object.keys(request.headers)));
    const { exchange } = openRequestContext(engine, codec, request, response);
    const principal = await exchange.authenticate(request.headers);
    response.status(200).json(engine.listModels(principal, codec));
  };
}
