import { boundClientText, secretRecogniser, type GatewayError, type SecretRecogniser } from '@signalbox/core';
import { toGatewayError } from './to-gateway-error';

/**
 * The most of any one text (a message, a `param`, an issue) an error body carries: the last line of
 * defence should some message quote a client value without bounding it first.
 */
const ERROR_TEXT_MAX_CHARS = 2000;

/**
 * Anything a middleware threw, as a client may be shown it: normalised by `toGatewayError`, with
 * every text that may quote what the client sent (a model ID, a field name, a path) or what an
 * upstream said scrubbed by `secrets` (the engine's, which knows its upstream keys; default the
 * shapes alone), then cut short. Every error answer of the gateway, the admin API and the panel
 * goes through here.
 */
export function toClientError(error: unknown, secrets: SecretRecogniser = secretRecogniser): GatewayError {
  return toGatewayError(error).withScrubbedText(text => boundClientText(text, ERROR_TEXT_MAX_CHARS, secrets));
}
