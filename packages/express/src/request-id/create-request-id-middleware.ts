import { boundClientText, type EndpointFacts, type Protocol } from '@signalbox/core';
import type { Endpoint, Engine } from '@signalbox/engine';
import type { Request, RequestHandler } from 'express';
import { openRequestContext } from '../context/open-request-context';

export type RequestIdOptions = {
  engine: Engine;
  /** The protocol of the interface this is mounted on; decides the envelope and the request-id headers. */
  protocol: Protocol;
  /** The endpoint, when its path says something of the request (a `{model}` in it, a streaming path). */
  endpoint?: Pick<Endpoint, 'path' | 'stream'>;
};

/** The most of a model named in a path a decoder is given (as long as a model ID may be). */
const PATH_MODEL_MAX_CHARS = 256;

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
  const { endpoint } = options;
  const factsOf = endpoint && (endpoint.stream !== undefined || endpoint.path.includes('{model}')) ? endpointFactsOf(endpoint, codec.descriptor.credential) : undefined;
  return function requestIdMiddleware(request, response, next) {
    openRequestContext(engine, codec, request, response, factsOf && { endpoint: factsOf(request) });
    next();
  };
}

/**
 * What a path-bearing endpoint's request says in its path and query: the model (bounded), whether
 * the endpoint streams, and the query's single values, the key's parameter left out.
 */
function endpointFactsOf(endpoint: Pick<Endpoint, 'stream'>, credential: Engine['registry']['codecs'][number]['descriptor']['credential']) {
  const keyParameter = credential.kind === 'header' ? credential.queryParameter : undefined;
  return (request: Request): EndpointFacts => {
    const query: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) {
      if (name !== keyParameter && typeof value === 'string') query[name] = boundClientText(value, PATH_MODEL_MAX_CHARS);
    }
    const model = request.params.model;
    return { ...(typeof model === 'string' && { model: boundClientText(model, PATH_MODEL_MAX_CHARS) }), stream: endpoint.stream === true, query };
  };
}
