import { GatewayError } from '@switchyard/core';

/** body-parser's error types, as it tags them. */
type HttpParserError = { type?: string; status?: number; expose?: boolean };

/**
 * Normalizes anything a middleware threw: `GatewayError`s as they are, body-parser's errors as the
 * taxonomy's 400 / 413, and anything else as a 500 that reveals nothing of its cause.
 */
export function toGatewayError(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  const parserError = (typeof error === 'object' && error !== null ? error : {}) as HttpParserError;
  switch (parserError.type) {
    case 'entity.parse.failed':
      return new GatewayError({ code: 'INVALID_JSON', message: 'The request body is not valid JSON.', cause: error });
    case 'entity.too.large':
      return new GatewayError({ code: 'REQUEST_TOO_LARGE', message: 'The request body is too large.', cause: error });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new GatewayError({ code: 'INVALID_REQUEST', message: 'The request body must be UTF-8 JSON.', cause: error });
    case 'request.aborted':
    case 'request.size.invalid':
      return new GatewayError({ code: 'INVALID_REQUEST', message: 'The request body was incomplete.', cause: error });
    default:
      return GatewayError.from(error);
  }
}
