import type { GatewayError } from '../errors/gateway-error';
import type { StreamEvent } from '../generation/stream-event';

/** The fields of a `GatewayError` a test may compare. */
export type ComparableErrorField = 'code' | 'status' | 'message' | 'param' | 'upstream';

/** An `error` event with its error reduced to plain data. */
export type ComparableErrorEvent = { type: 'error' } & Partial<Pick<GatewayError, ComparableErrorField>>;

export type ComparableEvent = Exclude<StreamEvent, { type: 'error' }> | ComparableErrorEvent;

/**
 * Stream events with every error reduced to the chosen fields as plain data, so `toEqual` and
 * snapshots compare what an error says (its code, message, upstream details) rather than an
 * `Error` instance, whose stack and cause differ from run to run. Every chosen field is present,
 * even when `undefined`, so snapshots show the same keys for every error.
 */
export function comparableEvents(
  events: readonly StreamEvent[],
  fields: readonly ComparableErrorField[] = ['code', 'message', 'upstream'],
): ComparableEvent[] {
  return events.map(event => {
    if (event.type !== 'error') return event;
    const comparable: Record<string, unknown> = { type: 'error' };
    for (const field of fields) comparable[field] = event.error[field];
    return comparable as ComparableErrorEvent;
  });
}
