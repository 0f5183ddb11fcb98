/** A value that survives `JSON.stringify` → `JSON.parse` unchanged. */
export type JSONValue = null | string | number | boolean | JSONValue[] | JSONObject;

/** A JSON object; the shape of every wire body the codecs read and write. */
export type JSONObject = { [key: string]: JSONValue | undefined };

/** True for a plain (non-array, non-null) object. */
export function isJSONObject(value: unknown): value is JSONObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
