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
  // No inflation: compressed bodies are refused (a clear 400), never decompressed past the size limit's intent.
  const parseJSON = express.json({ limit: options.limitBytes ?? 4 * 1024 * 1024, strict: false, inflate: false });
  return function bodyMiddleware(request, response, next) {
    if (!request.is('application/json')) {
      throw new GatewayError({
        code: 'INVALID_JSON',
        message: 'The request body must be JSON sent with `Content-Type: application/json`.',
      });
    }
    parseJSON(request, response, error => {
      if (error) return next(error);
      if (nestingDepthExceeds(request.body, MAX_NESTING_DEPTH)) {
        return next(
          new GatewayError({ code: 'INVALID_REQUEST', message: `The request body nests deeper than ${MAX_NESTING_DEPTH} levels.` }),
        );
      }
      next();
    });
  };
}

/** Deeper than any real request; deeper bodies would only exhaust the validators' stack. */
const MAX_NESTING_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `limit` (iterative: deep input cannot overflow the stack). */
function nestingDepthExceeds(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > limit) return true;
    for (const item of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof item === 'object' && item !== null) pending.push([item, depth + 1]);
    }
  }
  return false;
}
