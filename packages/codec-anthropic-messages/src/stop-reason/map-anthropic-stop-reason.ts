import type { FinishReason } from '@signalbox/core';

/**
 * Messages `stop_reason` → IR finish reason. `pause_turn` is never a clean stop: the turn is
 * unfinished (the client is meant to continue it), and reporting `stop` would hide the truncation.
 * It is the IR's `error` finish: a Messages client continues the turn, no other client can.
 * @see https://docs.anthropic.com/en/api/messages (`stop_reason`)
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
export function mapAnthropicStopReason(
  raw: string | null | undefined,
  stopSequence?: string | null,
): FinishReason {
  switch (raw) {
    case 'end_turn':
      return { unified: 'stop', raw };
    case 'stop_sequence':
      return { unified: 'stop', raw, ...(typeof stopSequence === 'string' && { stopSequence }) };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'refusal':
      return { unified: 'content-filter', raw };
    case 'pause_turn':
      return { unified: 'error', raw };
    default:
      return { unified: 'other', raw: raw ?? undefined };
  }
}
