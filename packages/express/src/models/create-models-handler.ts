import { createId, type Codec, type ModelInfo, type Protocol } from '@switchyard/core';
import { INTERFACE_PROTOCOLS, type Engine } from '@switchyard/engine';
import type { RequestHandler } from 'express';
import { setGatewayContext } from '../context/gateway-context';

export type ModelsHandlerOptions = {
  engine: Engine;
  codecs: Partial<Record<Protocol, Codec>>;
  /** Unix seconds reported as each model's creation time. Default: when the handler was created. */
  createdAt?: number;
};

/**
 * `GET /v1/models`: the routes in config order. Callers that authenticate the Anthropic way
 * (`x-api-key` + version header) get Anthropic's list shape, everyone else OpenAI's.
 *
 * @example router.get('/v1/models', createModelsHandler({ engine, codecs }))
 */
export function createModelsHandler(options: ModelsHandlerOptions): RequestHandler {
  const { engine, codecs } = options;
  const createdAt = options.createdAt ?? Math.floor(Date.now() / 1000);
  const models: ModelInfo[] = engine.listModels().map(route => ({
    id: route.model,
    createdAt,
    protocols: route.interfaces.map(name => INTERFACE_PROTOCOLS[name]),
    ...(route.description !== undefined && { description: route.description }),
  }));
  return async function modelsHandler(request, response) {
    const protocol: Protocol = request.headers['x-api-key'] !== undefined ? 'anthropic-messages' : 'openai-responses';
    const requestId = createId('req_');
    const context = setGatewayContext(request, { requestId, startedAt: Date.now(), protocol });
    response.setHeader('x-request-id', requestId);
    if (protocol === 'anthropic-messages') response.setHeader('request-id', requestId);
    context.principal = await engine.authenticate(protocol, request.headers);
    const codec = codecs[protocol] ?? codecs['openai-chat'] ?? Object.values(codecs)[0]!;
    response.status(200).json(codec.encodeModelList(models));
  };
}
