import type { Endpoint, Engine } from '@signalbox/engine';
import type { RequestHandler } from 'express';
import { getExchange, getPrincipal } from '../context/gateway-context';

export type StoredResponseHandlerOptions = {
  /** The gateway's engine: it reads the caller's stored responses and bills nothing. */
  engine: Engine;
  /** Which stored-response endpoint this is (`engine.registry.endpoints`). */
  endpoint: Pick<Endpoint, 'method' | 'kind'>;
};

/**
 * A stored-response endpoint (Responses: `GET`/`DELETE /v1/responses/{id}`,
 * `GET /v1/responses/{id}/input_items`), after the request id and auth middlewares: the caller's
 * own stored response, deleted or one page of its input items, in the protocol's shapes. Nothing is
 * billed; an id the caller's account does not have is a 404 naming it.
 *
 * @example router.get('/v1/responses/:id', …request id and auth…, createStoredResponseHandler({ engine, endpoint }))
 */
export function createStoredResponseHandler(options: StoredResponseHandlerOptions): RequestHandler {
  const { engine, endpoint } = options;
  return async function storedResponseHandler(request, response) {
    const stored = engine.storedResponses(getPrincipal(request), getExchange(request).codec);
    const id = String(request.params.id);
    const query = request.query as Readonly<Record<string, unknown>>;
    const body =
      endpoint.kind === 'stored-input-items'
        ? await stored.listInputItems(id, query)
        : endpoint.method === 'DELETE'
          ? await stored.delete(id)
          : await stored.retrieve(id);
    response.status(200).json(body);
  };
}

/**
 * An endpoint's path as Express matches it: a declared `{id}` or `{model}` becomes a parameter of
 * that name, and a literal `:` (Gemini's `:generateContent`) is escaped.
 */
export function expressPathOf(path: string): string {
  return path.replaceAll(':', String.raw`\:`).replaceAll('{id}', ':id').replaceAll('{model}', ':model');
}
