import type { RequestHandler } from 'express';
import { getExchange } from '../context/gateway-context';

/**
 * A token-count endpoint (Messages: `POST /v1/messages/count_tokens`): the gateway's documented
 * estimate (characters / 4 plus a flat amount per attachment) in the protocol's answer shape, not
 * the upstream's tokenizer.
 *
 * @example router.post('/v1/messages/count_tokens', …request id, auth and body…, createTokenCountHandler())
 */
export function createTokenCountHandler(): RequestHandler {
  return function tokenCountHandler(request, response) {
    response.status(200).json(getExchange(request).countTokens(request.body));
  };
}
