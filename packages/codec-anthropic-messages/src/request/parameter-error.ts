import { GatewayError } from '@switchyard/core';

/**
 * A 400 about one request field: `INVALID_REQUEST` for a client mistake, `UNSUPPORTED_PARAMETER`
 * for something valid the gateway cannot serve. The message always names the field.
 */
export function parameterError(
  code: 'INVALID_REQUEST' | 'UNSUPPORTED_PARAMETER',
  param: string,
  message: string,
): GatewayError {
  return new GatewayError({ code, param, message: `${param}: ${message}` });
}
