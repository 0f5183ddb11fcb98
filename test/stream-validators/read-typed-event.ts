import type { JSONObject, SSEMessage } from '@signalbox/core';
import { reportViolation, type ViolationContext } from './report-violation';
import { formatValue, parseJSONObject } from './value-guards';

/** Validator state every named-event protocol (Responses, Messages) shares. */
export type TypedEventContext = ViolationContext & { events: string[] };

/**
 * Reads one named-event SSE message: its data must be a JSON object with a string `type`, and its
 * `event:` line must be there and equal that type (the Anthropic SDK skips frames without one).
 * Records the type in `events`; `undefined` (after reporting why) when the data is unusable.
 */
export function readTypedEvent(
  context: TypedEventContext,
  message: SSEMessage,
  index: number,
): { data: JSONObject; type: string } | undefined {
  context.index = index;
  context.label = message.event ?? '(no event line)';
  const data = parseJSONObject(message.data);
  const type = data?.type;
  if (!data || typeof type !== 'string') {
    context.events.push('(invalid)');
    reportViolation(context, `data must be a JSON object with a string type, got ${formatValue(message.data)}`);
    return undefined;
  }
  context.label = type;
  context.events.push(type);
  if (message.event === undefined) reportViolation(context, `missing event: line (data.type is "${type}")`);
  else if (message.event !== type) reportViolation(context, `event: line "${message.event}" does not match data.type "${type}"`);
  return { data, type };
}
