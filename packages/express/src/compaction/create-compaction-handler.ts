import type { RequestHandler } from 'express';
import { getExchange } from '../context/gateway-context';
import { abortControllerForResponse } from '../generation/abort-controller-for-response';

/**
 * A remote compaction endpoint (Responses: `POST /v1/responses/compact`): the parsed body goes to
 * the request's exchange, which has the route's model write the summary; its compacted response comes
 * back as JSON. A client that disconnects aborts the upstream call.
 *
 * @example router.post('/v1/responses/compact', …request id, auth and body…, createCompactionHandler())
 */
export function createCompactionHandler(): RequestHandler {
  return async function compactionHandler(request, response) {
    response.status(200).json(await getExchange(request).compact(request.body, abortControllerForResponse(response)));
  };
}
