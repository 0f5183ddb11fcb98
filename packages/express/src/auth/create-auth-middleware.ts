import type { RequestHandler } from 'express';
import { getExchange } from '../context/gateway-context';

/**
 * Authenticates with the interface's own scheme (its codec's descriptor: Bearer, or a key header
 * plus a version header). Runs before the body is parsed, so unauthenticated callers cost no JSON
 * parsing. Failures go to the error handler as 400/401/403 `GatewayError`s.
 *
 * @example router.post('/v1/responses', createRequestIdMiddleware({ engine, protocol }), createAuthMiddleware(), …)
 */
export function createAuthMiddleware(): RequestHandler {
  return async function authMiddleware(request, _response, next) {
    await getExchange(request).authenticate(request.headers, request.query);
    next();
  };
}
