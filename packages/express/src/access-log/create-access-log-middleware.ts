import { redactHeaders, redactURL } from '@switchyard/core';
import type { RequestHandler } from 'express';
import { findGatewayContext } from '../context/gateway-context';
import type { GatewayLogger } from '../gateway-logger';

export type AccessLogOptions = { logger: GatewayLogger };

/**
 * One structured log line per request when its response ends: method, path with signed query
 * parameters redacted, status, latency, request id, the key's visible prefix, and headers with
 * credentials and cookies redacted. Never a body: prompts do not reach the logs.
 *
 * @example router.use(createAccessLogMiddleware({ logger: pino() }))
 */
export function createAccessLogMiddleware(options: AccessLogOptions): RequestHandler {
  const { logger } = options;
  return function accessLogMiddleware(request, response, next) {
    const startedAt = Date.now();
    response.once('close', () => {
      const context = findGatewayContext(request);
      logger.info(
        {
          requestId: context?.requestId,
          method: request.method,
          path: redactURL(request.originalUrl),
          status: response.statusCode,
          aborted: !response.writableFinished,
          latencyMs: Date.now() - startedAt,
          keyPrefix: context?.principal?.key.prefix,
          headers: redactHeaders(request.headers),
        },
        'http request',
      );
    });
    next();
  };
}
