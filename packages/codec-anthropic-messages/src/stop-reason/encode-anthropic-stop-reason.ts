import { assertNever, type FinishReason, type JSONObject } from '@signalbox/core';

/** The stop fields of a Messages answer (`Message` and `message_delta.delta` share them). */
export type AnthropicStopFields = {
  stop_reason: string;
  stop_sequence: string | null;
  stop_details: JSONObject | null;
};

/**
 * IR finish reason → Messages stop fields. Any `tool_use` block means `tool_use` (OpenAI reports
 * `stop` for forced calls), unless the answer was cut (`max_tokens`) or refused.
 */
export function encodeAnthropicStopReason(
  finishReason: FinishReason,
  hasToolUse: boolean,
): AnthropicStopFields {
  const stop = (stop_reason: string, stop_sequence: string | null = null): AnthropicStopFields => ({
    stop_reason,
    stop_sequence,
    stop_details: null,
  });
  switch (finishReason.unified) {
    case 'length':
      return stop('max_tokens');
    case 'content-filter':
      return {
        stop_reason: 'refusal',
        stop_sequence: null,
        stop_details: { type: 'refusal', category: null, explanation: null },
      };
    case 'tool-calls': // without a tool_use block, `tool_use` would promise a call that is not there
      return stop(hasToolUse ? 'tool_use' : 'end_turn');
    case 'stop':
      if (hasToolUse) return stop('tool_use');
      return finishReason.stopSequence !== undefined
        ? stop('stop_sequence', finishReason.stopSequence)
        : stop('end_turn');
    case 'other':
    case 'error':
      return stop(hasToolUse ? 'tool_use' : 'end_turn');
    default:
      return assertNever(finishReason.unified, 'IR finish reason');
  }
}
