import { boundClientText, retryAfterSeconds, type GatewayError } from '@signalbox/core';
import type { Engine } from '@signalbox/engine';
import type { ErrorRequestHandler } from 'express';
import { findGatewayContext } from '../context/gateway-context';
import { openRequestContext } from '../context/open-request-context';
import type { GatewayLogger } from '../gateway-logger';
import { failureLogFields, failureLogMessage, upstreamLogFields } from './failure-log-fields';
import { protocolHeaderFields } from './protocol-header-fields';
import { requestShapeOf } from './request-shape';
import { toClientError } from './to-client-error';

export type ErrorHandlerOptions = {
  engine: Engine;
  /**
   * 5xx errors are logged at `error`; refusals at `debug` (the refused field, the message, protocol
   * headers with credentials redacted to a key's visible prefix). Neither line carries an
   * upstream's message, only its status, type, code and digest.
   */
  logger?: GatewayLogger;
};

/**
 * The last middleware: renders any error in the envelope of the interface the request came in on,
 * with the stable service code, the request id, and `Retry-After` when the error carries a delay,
 * and hands it to the request's exchange (which records it unless the request was settled already).
 * Once a stream has started, errors travel inside it; this handler then only lets Express close.
 *
 * @example router.use(createErrorHandler({ engine }))
 */
export function createErrorHandler(options: ErrorHandlerOptions): ErrorRequestHandler {
  const { engine, logger } = options;
  return function gatewayErrorHandler(error, request, response, next) {
    if (response.headersSent) return next(error);
    // A request that failed before any gateway middleware ran gets its id (and its envelope, guessed) here.
    const context =
      findGatewayContext(request) ?? openRequestContext(engine, engine.registry.guess(requestShapeOf(request)), request, response, { recorded: false });
    const { codec, requestId } = context;
    const failure = toClientError(error, engine.secrets);
    context.exchange?.refuse(failure);
    const { status, body } = codec.encodeError(failure, requestId);
    if (failure.retryAfterMs !== undefined) response.setHeader('retry-after', String(retryAfterSeconds(failure.retryAfterMs)));
    if (status >= 500) logger?.error({ requestId, ...failureLogFields(failure) }, failureLogMessage(failure));
    else logger?.debug?.(refusalLine(requestId, failure, protocolHeaderFields(request.headers, codec.descriptor, engine.secrets)), 'request refused');
    response.status(status).json(body);
  };
}

/**
 * A refusal as a debug line, beside the request's access line: the code, the refused field and the
 * message the client got (or, for an upstream's refusal, only its status, type, code and digest),
 * and the protocol headers sent, credentials redacted to a key's visible prefix (never bodies).
 */
function refusalLine(requestId: string, failure: GatewayError, protocolHeaders: Record<string, string>) {
  return {
    requestId,
    code: failure.code,
    status: failure.status,
    ...(failure.upstream && { upstream: upstreamLogFields(failure.upstream) }),
    ...(failure.param !== undefined && { param: boundClientText(failure.param) }),
    message: failureLogMessage(failure),
    protocolHeaders,
  };
}
