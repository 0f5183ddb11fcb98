import type { FinishReason } from '@signalbox/core';

/**
 * A Responses terminal status → IR finish reason. `completed` is `tool-calls` when the output holds
 * a `function_call` (Responses has no separate tool-use status), else `stop`.
 * @see https://platform.openai.com/docs/api-reference/responses/object (`status`, `incomplete_details`)
 */
export function mapOpenAIResponsesFinishReason(
  status: string | null | undefined,
  incompleteReason: string | null | undefined,
  hasFunctionCall: boolean,
): FinishReason {
  switch (status) {
    case 'completed':
      return { unified: hasFunctionCall ? 'tool-calls' : 'stop', raw: status };
    case 'incomplete':
      if (incompleteReason === 'max_output_tokens') return { unified: 'length', raw: incompleteReason };
      if (incompleteReason === 'content_filter') return { unified: 'content-filter', raw: incompleteReason };
      return { unified: 'other', raw: incompleteReason ?? status };
    case 'failed':
    case 'cancelled':
      return { unified: 'error', raw: status };
    default:
      return { unified: 'other', raw: status ?? undefined };
  }
}
