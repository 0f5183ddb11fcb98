import { assertNever, type FinishReason, type JSONObject } from '@signalbox/core';

/** A Response's terminal `status` with its `incomplete_details` (`null` unless incomplete). */
export type OpenAIResponsesTerminalStatus = {
  status: 'completed' | 'incomplete' | 'failed';
  incompleteDetails: JSONObject | null;
};

/**
 * IR finish reason → the client's `status` / `incomplete_details`. Truncation and filtering are
 * `incomplete` (never a success); an IR `error` finish is `failed` so it is not laundered into a stop.
 */
export function mapOpenAIResponsesStatus(finishReason: FinishReason): OpenAIResponsesTerminalStatus {
  switch (finishReason.unified) {
    case 'stop':
    case 'tool-calls':
    case 'other':
      return { status: 'completed', incompleteDetails: null };
    case 'length':
      return { status: 'incomplete', incompleteDetails: { reason: 'max_output_tokens' } };
    case 'content-filter':
      return { status: 'incomplete', incompleteDetails: { reason: 'content_filter' } };
    case 'error':
      return { status: 'failed', incompleteDetails: null };
    default:
      return assertNever(finishReason.unified, 'finish reason');
  }
}
