import { boundClientText, scrubSecrets, type GatewayError } from '@signalbox/core';
import { toGatewayError } from './to-gateway-error';

/**
 * The most of any one text (a message, a `param`, an issue) an error body carries: the last line of
 * defence should some message quote a client value without bounding it first.
 */
const ERROR_TEXT_MAX_CHARS = 2000;

/**
 * Anything a middleware threw, as a client may be shown it: normalised by `toGatewayError`, with
 * every text that may quote what the client sent (a model ID, a field name, a path) scrubbed of
 * credentials and cut short. Every error answer of the gateway, the admin API and the panel goes
 * through here.
 */
export function toClientError(error: unknown): GatewayError {
  return toGatewayError(error).withScrubbedText(text => boundClientText(scrubSecrets(text), ERROR_TEXT_MAX_CHARS));
}
