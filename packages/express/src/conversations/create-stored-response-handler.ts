import type { Endpoint } from '@signalbox/engine';
import type { RequestHandler } from 'express';
import { getExchange } from '../context/gateway-context';

/**
 * A stored-response endpoint (Responses: `GET`/`DELETE /v1/responses/{id}`,
 * `GET /v1/responses/{id}/input_items`), after the request id and auth middlewares: the caller's
 * own stored response, deleted or one page of its input items, in the protocol's shapes. Nothing is
 * billed; an id the caller's account does not have is a 404 naming it.
 *
 * @example router.get('/v1/responses/:id', …request id and auth…, createStoredResponseHandler(endpoint))
 */
export function createStoredResponseHandler(endpoint: Pick<Endpoint, 'method' | 'kind'>): RequestHandler {
  return async function storedResponseHandler(request, response) {
    const stored = getExchange(request).storedResponses();
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

/** An endpoint's path as Express matches it: the declared `{id}` becomes the `:id` parameter. */
export function expressPathOf(path: string): string {
  return path.replaceAll('{id}', ':id');
}
