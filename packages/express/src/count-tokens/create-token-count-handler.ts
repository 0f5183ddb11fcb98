import type { Engine } from '@signalbox/engine';
import type { RequestHandler } from 'express';
import { getExchange, getPrincipal } from '../context/gateway-context';

export type TokenCountHandlerOptions = {
  /** The gateway's engine: it counts, for the caller the auth middleware found, and bills nothing. */
  engine: Engine;
};

/**
 * A token-count endpoint (Messages: `POST /v1/messages/count_tokens`): the gateway's documented
 * estimate (characters / 4 plus a flat amount per attachment) in the protocol's answer shape, not
 * the upstream's tokenizer.
 *
 * @example router.post('/v1/messages/count_tokens', …request id, auth and body…, createTokenCountHandler({ engine }))
 */
export function createTokenCountHandler(options: TokenCountHandlerOptions): RequestHandler {
  const { engine } = options;
  return function tokenCountHandler(request, response) {
    const { codec, decodeOptions } = getExchange(request);
    response.status(200).json(engine.countTokens(getPrincipal(request), codec, request.body, decodeOptions));
  };
}
