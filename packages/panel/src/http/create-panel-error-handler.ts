import { retryAfterSeconds, type SecretRecogniser } from '@signalbox/core';
import { failureLogFields, failureLogMessage, toClientError } from '@signalbox/express';
import type { ErrorRequestHandler } from 'express';
import { panelRequestId } from './panel-request-id';

/** Where an unexpected failure is reported (pino and the gateway's logger fit). */
export type PanelLogger = {
  error: (fields: Record<string, unknown>, message?: string) => void;
  /** Gets an unreachable single sign-on provider and each refused or failed single sign-on login. */
  warn?: (fields: Record<string, unknown>, message?: string) => void;
};

/**
 * Panel errors as `{ error: { code, message, param? }, request_id }` with the code's status and
 * `Retry-After` when the error carries a delay, normalised and scrubbed as the gateway's own (by
 * `secrets`, the gateway's recogniser when the host passes one; a body that does not read is a
 * 4xx). A 5xx is logged the way the gateway logs one (code, status, the cause's type and stack,
 * never its message) and its text kept off the page.
 */
export function createPanelErrorHandler(logger?: PanelLogger, secrets?: SecretRecogniser): ErrorRequestHandler {
  return function panelErrorHandler(error: unknown, _request, response, next) {
    if (response.headersSent) return next(error);
    const failure = toClientError(error, secrets);
    const requestId = panelRequestId(response);
    if (failure.status >= 500) logger?.error({ requestId, ...failureLogFields(failure) }, failureLogMessage(failure));
    if (failure.retryAfterMs !== undefined) response.setHeader('retry-after', String(retryAfterSeconds(failure.retryAfterMs)));
    response.status(failure.status).json({
      error: { code: failure.code, message: failure.message, ...(failure.param !== undefined && { param: failure.param }) },
      request_id: requestId,
    });
  };
}
