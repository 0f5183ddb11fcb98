import { GatewayError } from '@signalbox/core';

/** What body-parser and Express's router attach to the errors they throw (http-errors). */
type HttpError = { type?: string; status?: number; statusCode?: number; expose?: boolean };

/**
 * Normalizes anything a middleware threw: `GatewayError`s as they are; body-parser's and the
 * router's client errors (malformed JSON, oversize, bodies in an unsupported encoding or charset, a malformed
 * percent-escape in the path) as the taxonomy's 400 / 413; anything else as a 500 that reveals
 * nothing of its cause.
 */
export function toGatewayError(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  const httpError = (typeof error === 'object' && error !== null ? error : {}) as HttpError;
  switch (httpError.type) {
    case 'entity.parse.failed':
      return new GatewayError({ code: 'INVALID_JSON', message: 'The request body is not valid JSON.', cause: error });
    case 'entity.too.large':
      return new GatewayError({ code: 'REQUEST_TOO_LARGE', message: 'The request body is too large.', cause: error });
    case 'encoding.unsupported':
      return new GatewayError({ code: 'UNSUPPORTED_CONTENT_ENCODING', message: 'The request body\'s Content-Encoding is not supported; send it uncompressed.', cause: error });
    case 'charset.unsupported':
      return new GatewayError({ code: 'INVALID_REQUEST', message: 'The request body must be UTF-8 JSON.', cause: error });
    case 'request.aborted':
    case 'request.size.invalid':
      return new GatewayError({ code: 'INVALID_REQUEST', message: 'The request body was incomplete.', cause: error });
    default:
      break;
  }
  const status = httpError.status ?? httpError.statusCode;
  if (error instanceof URIError || (status !== undefined && status >= 400 && status < 500)) {
    // A client error some middleware raised (e.g. the router's "Failed to decode param"): its words are not echoed.
    return new GatewayError({ code: status === 413 ? 'REQUEST_TOO_LARGE' : 'INVALID_REQUEST', message: 'The request could not be read.', cause: error });
  }
  return GatewayError.from(error);
}
