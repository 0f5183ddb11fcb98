import { isJSONObject, type JSONObject } from '@signalbox/core';
import { reportViolation } from './report-violation';
import { resolveResponsesItem } from './responses-item-handlers';
import type { ResponsesStreamState, ResponsesSummary } from './responses-stream-state';
import { formatValue, isInteger } from './value-guards';

/** `reasoning_summary_part.added`: a `summary_text` part on a reasoning item, `summary_index` contiguous. */
export function handleSummaryPartAdded(state: ResponsesStreamState, data: JSONObject): void {
  const item = resolveResponsesItem(state, data, 'reasoning');
  if (!item) return;
  const summaryIndex = data.summary_index;
  if (!isInteger(summaryIndex)) {
    reportViolation(state, `summary_index must be an integer, got ${formatValue(summaryIndex)}`);
    return;
  }
  if (summaryIndex !== item.summaries.length) {
    reportViolation(
      state,
      `summary_index ${summaryIndex}, expected ${item.summaries.length} (contiguous per item)`,
    );
  }
  const part = data.part;
  if (!isJSONObject(part) || part.type !== 'summary_text' || typeof part.text !== 'string') {
    reportViolation(state, `part must be {type:"summary_text", text}, got ${formatValue(part)}`);
  }
  const initial = isJSONObject(part) && typeof part.text === 'string' ? part.text : '';
  item.summaries.push({ summaryIndex, text: initial, textDone: false, done: false });
}

/** `reasoning_summary_text.delta` / `.done`: need their part added; `.done` text equals the deltas. */
export function handleSummaryText(
  state: ResponsesStreamState,
  data: JSONObject,
  kind: 'delta' | 'done',
): void {
  const summary = resolveSummary(state, data);
  if (!summary) return;
  if (summary.textDone || summary.done) {
    reportViolation(state, `summary part ${summary.summaryIndex} text is already done`);
  }
  const field = kind === 'delta' ? 'delta' : 'text';
  const value = data[field];
  if (typeof value !== 'string') {
    reportViolation(state, `${field} must be a string, got ${formatValue(value)}`);
    return;
  }
  if (kind === 'delta') {
    summary.text += value;
    return;
  }
  if (value !== summary.text) {
    reportViolation(
      state,
      `text ${formatValue(value)} differs from the concatenated deltas ${formatValue(summary.text)}`,
    );
  }
  summary.textDone = true;
}

/** `reasoning_summary_part.done`: once, after `reasoning_summary_text.done`. */
export function handleSummaryPartDone(state: ResponsesStreamState, data: JSONObject): void {
  const summary = resolveSummary(state, data);
  if (!summary) return;
  if (summary.done) {
    reportViolation(state, `second reasoning_summary_part.done for summary ${summary.summaryIndex}`);
  }
  if (!summary.textDone) {
    reportViolation(
      state,
      `reasoning_summary_part.done before reasoning_summary_text.done of summary ${summary.summaryIndex}`,
    );
  }
  summary.done = true;
}

function resolveSummary(state: ResponsesStreamState, data: JSONObject): ResponsesSummary | undefined {
  const item = resolveResponsesItem(state, data, 'reasoning');
  if (!item) return undefined;
  const summary = item.summaries.find(candidate => candidate.summaryIndex === data.summary_index);
  if (!summary) {
    reportViolation(
      state,
      `summary_index ${formatValue(data.summary_index)} of item "${item.id}" has no reasoning_summary_part.added`,
    );
  }
  return summary;
}
