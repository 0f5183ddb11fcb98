import { GatewayError } from '@switchyard/core';
import express, { type RequestHandler } from 'express';

export type BodyOptions = {
  /** Largest accepted body in bytes; larger ones get 413 (by Content-Length or while reading chunks). Default 4 MiB. */
  limitBytes?: number;
};

/**
 * Parses a JSON body (one parse) with a size limit. A body that is not declared as JSON is refused
 * with a 400 that says what to send; malformed JSON and oversize bodies become the gateway's
 * 400 / 413 in the interface's envelope (see `toGatewayError`).
 *
 * @example router.post('/v1/messages', …, createBodyMiddleware({ limitBytes: 1 << 20 }), …)
 */
export function createBodyMiddleware(options: BodyOptions = {}): RequestHandler {
  const parseJSON = express.json({ limit: options.limitBytes ?? 4 * 1024 * 1024, strict: false });
  return function bodyMiddleware(request, response, next) {
    if (!request.is('application/json')) {
      throw new GatewayError({
        code: 'INVALID_JSON',
        message: 'The request body must be JSON sent with `Content-Type: application/json`.',
      });
    }
    parseJSON(request, response, next);
  };
}
