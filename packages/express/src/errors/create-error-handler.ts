import { createId, scrubSecrets, type Codec, type Protocol } from '@switchyard/core';
import type { Engine } from '@switchyard/engine';
import type { ErrorRequestHandler } from 'express';
import { findGatewayContext } from '../context/gateway-context';
import type { GatewayLogger } from '../gateway-logger';
import { guessProtocol } from './guess-protocol';
import { toGatewayError } from './to-gateway-error';

export type ErrorHandlerOptions = {
  engine: Engine;
  codecs: Partial<Record<Protocol, Codec>>;
  logger?: GatewayLogger;
};

/**
 * The last middleware: renders any error in the envelope of the interface the request came in on,
 * with the stable service code, the request id, and `Retry-After` when the error carries a delay.
 * Once a stream has started, errors travel inside it; this handler then only lets Express close.
 *
 * @example router.use(createErrorHandler({ engine, codecs }))
 */
export function createErrorHandler(options: ErrorHandlerOptions): ErrorRequestHandler {
  const { engine, codecs, logger } = options;
  return function gatewayErrorHandler(error, request, response, next) {
    if (response.headersSent) return next(error);
    const context = findGatewayContext(request);
    const protocol = context?.protocol ?? guessProtocol(request);
    const requestId = context?.requestId ?? createId('req_');
    // Messages may quote what the client sent (a model ID, a field name, a path): never a credential.
    const failure = toGatewayError(error).withScrubbedText(scrubSecrets);
    const codec = codecs[protocol] ?? Object.values(codecs)[0]!;
    const { status, body } = codec.encodeError(failure, requestId);
    response.setHeader('x-request-id', requestId);
    if (protocol === 'anthropic-messages') response.setHeader('request-id', requestId);
    if (failure.retryAfterMs !== undefined) response.setHeader('retry-after', String(Math.max(1, Math.ceil(failure.retryAfterMs / 1000))));
    if (status >= 500) logger?.error({ requestId, code: failure.code, err: failure.cause ?? failure }, failure.message);
    if (!context?.recordedElsewhere) {
      engine.recordRefusal({
        protocol,
        requestId,
        startedAt: context?.startedAt ?? Date.now(),
        error: failure,
        ...(context?.principal && { principal: context.principal }),
      });
    }
    response.status(status).json(body);
  };
}
