import type { Engine } from '@signalbox/engine';
import type { RequestHandler } from 'express';
import { getExchange, getPrincipal } from '../context/gateway-context';
import { abortControllerForResponse } from '../generation/abort-controller-for-response';

export type TokenCountHandlerOptions = {
  /** The gateway's engine: it counts, for the caller the auth middleware found, and bills nothing. */
  engine: Engine;
};

/**
 * A token-count endpoint (Messages: `POST /v1/messages/count_tokens`), in the protocol's answer
 * shape: the count of the route's cloud where it counts (Bedrock, Vertex AI), else the gateway's
 * documented estimate (characters / 4 plus a flat amount per attachment), marked in `x-signalbox-warnings`.
 *
 * @example router.post('/v1/messages/count_tokens', …request id, auth and body…, createTokenCountHandler({ engine }))
 */
export function createTokenCountHandler(options: TokenCountHandlerOptions): RequestHandler {
  const { engine } = options;
  return async function tokenCountHandler(request, response) {
    const { codec, decodeOptions } = getExchange(request);
    const counted = await engine.countTokens(getPrincipal(request), codec, request.body, { decodeOptions, signal: abortControllerForResponse(response).signal });
    response.status(200).set(counted.headers).json(counted.body);
  };
}
