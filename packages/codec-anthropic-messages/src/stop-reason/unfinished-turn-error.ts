import { GatewayError, type FinishReason } from '@signalbox/core';

/**
 * `pause_turn` (a long server-tool turn paused) leaves the answer unfinished. Reporting it as any
 * clean stop would hide the truncation, so the upstream's answer is a failure: an error event in a
 * stream, an upstream error for a JSON answer. `undefined` for any other reason.
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
export function unfinishedTurnError(finishReason: FinishReason): GatewayError | undefined {
  if (finishReason.raw !== 'pause_turn') return undefined;
  return new GatewayError({
    code: 'UPSTREAM_FAILED',
    message: "The upstream paused the turn ('pause_turn') before the answer was complete.",
    upstream: { type: 'pause_turn' },
  });
}
