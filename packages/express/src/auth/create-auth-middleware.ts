import type { Engine } from '@switchyard/engine';
import type { RequestHandler } from 'express';
import { getGatewayContext } from '../context/gateway-context';

export type AuthOptions = { engine: Engine };

/**
 * Authenticates with the interface's own scheme (Bearer for Responses and Chat; `x-api-key` plus
 * `anthropic-version` for Messages). Runs before the body is parsed, so unauthenticated callers
 * cost no JSON parsing. Failures go to the error handler as 400/401/403 `GatewayError`s.
 *
 * @example router.post('/v1/responses', createRequestIdMiddleware(…), createAuthMiddleware({ engine }), …)
 */
export function createAuthMiddleware(options: AuthOptions): RequestHandler {
  const { engine } = options;
  return async function authMiddleware(request, _response, next) {
    const context = getGatewayContext(request);
    context.principal = await engine.authenticate(context.protocol, request.headers);
    next();
  };
}
