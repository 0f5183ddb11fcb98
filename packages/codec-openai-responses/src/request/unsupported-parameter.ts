import { GatewayError } from '@switchyard/core';

/**
 * A 400 `UNSUPPORTED_PARAMETER` for a field the client may send to OpenAI but the gateway cannot
 * serve (server-side state, vendor file ids, built-in tools); `path` is the field as a dotted path.
 */
export function unsupportedParameter(path: readonly PropertyKey[], message: string): GatewayError {
  return new GatewayError({ code: 'UNSUPPORTED_PARAMETER', message, param: path.map(String).join('.') });
}
