import { createOpenAIBodyError, decodeOpenAIError } from '@signalbox/codec-openai-shared';
import { GatewayError, isJSONObject } from '@signalbox/core';
import type { WireEvent } from './openai-responses-wire-event';

/** `response.failed` → the upstream's error from `response.error` (`{ code, message }`). */
export function failedResponseError(response: unknown): GatewayError {
  const wire = isJSONObject(response) && isJSONObject(response.error) ? response.error : {};
  const details = decodeOpenAIError(wire);
  return createOpenAIBodyError({ ...details, message: details.message ?? 'The upstream response failed.' });
}

/**
 * Both shapes of the `error` event: the documented flat `code`/`message`/`param` and the nested
 * `error:{type, code, message, param}` real OpenAI streams were seen sending.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming (the `error` event)
 */
export function errorEventError(event: WireEvent): GatewayError {
  const { type, ...details } = decodeOpenAIError(event);
  // In the flat shape `type` is the event's own "error", not an error class.
  return createOpenAIBodyError(type === undefined || type === 'error' ? details : { type, ...details });
}

/** Data that is not JSON, or not an event object with a `type`. */
export function malformedEventError(): GatewayError {
  return new GatewayError({
    code: 'UPSTREAM_FAILED',
    message: 'The upstream sent a malformed Responses stream event.',
  });
}
