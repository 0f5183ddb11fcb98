import { redactURL, scrubSecrets } from '@switchyard/core';
import type { RequestHandler } from 'express';
import { findGatewayContext } from '../context/gateway-context';
import type { GatewayLogger } from '../gateway-logger';

export type AccessLogOptions = { logger: GatewayLogger };

/**
 * One structured log line per request when its response ends: method, path with signed query
 * parameters redacted, status, latency, request id, the key's visible prefix, and an allow-list of
 * harmless headers. Never a body or a credential header: prompts and keys do not reach the logs.
 *
 * @example router.use(createAccessLogMiddleware({ logger: pino() }))
 */
export function createAccessLogMiddleware(options: AccessLogOptions): RequestHandler {
  const { logger } = options;
  return function accessLogMiddleware(request, response, next) {
    const startedAt = Date.now();
    response.on('close', () => {
      const context = findGatewayContext(request);
      logger.info(
        {
          requestId: context?.requestId,
          method: request.method,
          path: scrubSecrets(redactURL(request.originalUrl)).slice(0, 500),
          status: response.statusCode,
          aborted: !response.writableFinished,
          latencyMs: Date.now() - startedAt,
          keyPrefix: context?.exchange?.principal?.key.prefix,
          headers: loggedHeaders(request.headers),
        },
        'http request',
      );
    });
    next();
  };
}

/** Only headers known to be harmless are logged (values scrubbed too); a credential in any other header never reaches the log. */
const LOGGED_HEADERS = ['user-agent', 'content-type', 'content-length', 'accept', 'x-stainless-lang', 'x-stainless-package-version', 'x-stainless-retry-count'];

function loggedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const logged: Record<string, string> = {};
  for (const name of LOGGED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) logged[name] = scrubSecrets(String(value).slice(0, 200));
  }
  return logged;
}
