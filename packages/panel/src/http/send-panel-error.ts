import { GatewayError } from '@signalbox/core';
import type { ErrorRequestHandler } from 'express';

/** Where an unexpected failure is reported (pino and the gateway's logger fit). */
export type PanelLogger = { error: (fields: Record<string, unknown>, message?: string) => void };

/**
 * Panel errors as `{ error: { code, message, param? } }` with the code's status. A body that is
 * not JSON or form data is a 400; anything else that is not a `GatewayError` is logged and answered
 * as a bare 500, its text kept off the page.
 */
export function createPanelErrorHandler(logger?: PanelLogger): ErrorRequestHandler {
  return function panelErrorHandler(error: unknown, _request, response, _next) {
    let known: GatewayError;
    if (error instanceof GatewayError) known = error;
    else if (isBodyError(error))
      known = new GatewayError({
        code: 'INVALID_REQUEST',
        message: 'The body is not valid JSON or form data, or is too large.',
      });
    else {
      logger?.error({ err: error }, 'panel request failed');
      known = new GatewayError({
        code: 'INTERNAL_ERROR',
        message: 'The panel could not answer; see the server log.',
      });
    }
    if (known.retryAfterMs !== undefined) response.setHeader('retry-after', String(Math.max(1, Math.ceil(known.retryAfterMs / 1000))));
    response
      .status(known.status)
      .json({
        error: {
          code: known.code,
          message: known.message,
          ...(known.param !== undefined && { param: known.param }),
        },
      });
  };
}

/** body-parser's errors carry an HTTP `status` below 500 and a `type`. */
function isBodyError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('type' in error) || !('status' in error)) return false;
  return typeof error.status === 'number' && error.status < 500;
}
