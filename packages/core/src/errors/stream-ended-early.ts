import { GatewayError } from './gateway-error';

/**
 * The `UPSTREAM_FAILED` error for a stream that stopped before its protocol's terminal event
 * (`message_stop`, `response.completed`, a final chunk with `finish_reason`): never reported as a
 * success, since the answer may be cut short. Decoders emit it when the upstream's bytes run out;
 * encoders when the IR stream they translate ends without `response-end` or `error`.
 */
export function streamEndedEarly(): GatewayError {
  return new GatewayError({ code: 'UPSTREAM_FAILED', message: 'The upstream stream ended before its terminal event.' });
}
