import { isJSONObject, type JSONObject } from '@signalbox/core';

/** A safe integer, as every index and token count on the three wires must be. */
export function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** A string with at least one character, as ids must be. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** Parses SSE `data` as a JSON object; anything else (invalid JSON, arrays, scalars) is `undefined`. */
export function parseJSONObject(text: string): JSONObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJSONObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A short JSON rendering of a wire value for violation messages (long strings are cut). */
export function formatValue(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
