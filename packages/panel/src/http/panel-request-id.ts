import { createId } from '@signalbox/core';
import type { RequestHandler, Response } from 'express';

/** Gives each panel API request a `req_…` id in `x-request-id`, which its error answer and log line repeat. */
export const assignPanelRequestId: RequestHandler = function panelRequestIdMiddleware(_request, response, next) {
  response.setHeader('x-request-id', createId('req_'));
  next();
};

/** The request's id, or a fresh one for a request that failed before it got one. */
export function panelRequestId(response: Response): string {
  const id = response.getHeader('x-request-id');
  if (typeof id === 'string') return id;
  const fresh = createId('req_');
  response.setHeader('x-request-id', fresh);
  return fresh;
}
