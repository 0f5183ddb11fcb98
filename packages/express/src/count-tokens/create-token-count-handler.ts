import type { Engine } from '@switchyard/engine';
import type { RequestHandler } from 'express';
import { getGatewayContext } from '../context/gateway-context';

export type TokenCountHandlerOptions = { engine: Engine };

/**
 * `POST /v1/messages/count_tokens`: `{ input_tokens }`, the gateway's documented estimate
 * (characters / 4 plus a flat amount per attachment), not the upstream's tokenizer.
 *
 * @example router.post('/v1/messages/count_tokens', …auth and body…, createTokenCountHandler({ engine }))
 */
export function createTokenCountHandler(options: TokenCountHandlerOptions): RequestHandler {
  const { engine } = options;
  return function tokenCountHandler(request, response) {
    const context = getGatewayContext(request);
    response.status(200).json(engine.countTokens({ protocol: context.protocol, body: request.body, principal: context.principal! }));
  };
}
