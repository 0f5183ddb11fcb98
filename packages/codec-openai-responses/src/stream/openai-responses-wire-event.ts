import { isJSONObject, type JSONObject } from '@signalbox/core';

/** One upstream Responses stream event, read leniently: only `type` is known to be there. */
export type WireEvent = JSONObject & { type: string };

/** The one `JSON.parse` per message; `undefined` for anything that is not an event object. */
export function parseWireEvent(data: string): WireEvent | undefined {
  try {
    const event: unknown = JSON.parse(data);
    return isJSONObject(event) && typeof event.type === 'string' ? (event as WireEvent) : undefined;
  } catch {
    return undefined;
  }
}

/** The key of the output item an event belongs to: its `output_index`. */
export function itemKey(event: WireEvent): string | undefined {
  return typeof event.output_index === 'number' ? String(event.output_index) : undefined;
}

/** The key of a message content part: `output_index:content_index`. */
export function partKey(event: WireEvent): string | undefined {
  const key = itemKey(event);
  return key === undefined || typeof event.content_index !== 'number'
    ? undefined
    : `${key}:${event.content_index}`;
}

/** An item's own id, or a stream-local stand-in (`function_call` ids are optional). */
export function itemId(item: JSONObject, key: string): string {
  return stringOrUndefined(item.id) || `item-${key}`;
}

/** The text of an `output_text` or `refusal` part. */
export function partText(part: unknown): string | undefined {
  if (!isJSONObject(part)) return undefined;
  return stringOrUndefined(part.type === 'refusal' ? part.refusal : part.text);
}

/** The value when it is a string; wire fields are never trusted to have their documented type. */
export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
