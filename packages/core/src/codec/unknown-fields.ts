import { isJSONObject, type JSONObject } from '../json';
import type { TranslationWarning } from './translation-warning';

/**
 * The `providerOptions[protocol]` key holding the top-level fields of a client body that its codec
 * does not know, as sent. Kept apart from the codec's own options so that a client field can never
 * pose as one of them, whatever its name.
 */
export const UNKNOWN_FIELDS_OPTION = 'unknown_fields';

/** How many unknown fields the warnings name; the rest are counted in one more warning. */
export const MAX_NAMED_UNKNOWN_FIELDS = 20;

/**
 * The fields of `body` outside `known`, as sent, or `undefined` when there are none. Built with
 * `Object.fromEntries`, so a field named `__proto__` stays a plain field.
 */
export function collectUnknownFields(body: JSONObject, known: ReadonlySet<string>): JSONObject | undefined {
  const entries = Object.entries(body).filter(([field, value]) => !known.has(field) && value !== undefined);
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as JSONObject);
}

/**
 * Adds the unknown fields kept in a codec's own options to a body its encoder built, as the client
 * sent them; a field the encoder set stays as the encoder set it. For the encoder of the client's
 * own protocol (the pass-through forwards the client's body and needs none of this).
 */
export function mergeUnknownFields(body: JSONObject, options: JSONObject | undefined): void {
  const unknown = options?.[UNKNOWN_FIELDS_OPTION];
  if (!isJSONObject(unknown)) return;
  for (const [field, value] of Object.entries(unknown)) {
    if (Object.hasOwn(body, field)) continue;
    Object.defineProperty(body, field, { value, enumerable: true, writable: true, configurable: true });
  }
}

/**
 * One `unknown-field` warning per unknown field, for a route whose upstream speaks another protocol
 * (which drops them). A name is shown only when it is a plain lower-case identifier of at most 64
 * characters, like every field the vendors define (`brand_new_field`), and only the first
 * `MAX_NAMED_UNKNOWN_FIELDS` are named: a client's secret or a 10 kB key never comes back in a
 * header, and a body with thousands of fields gets a short one. The others are counted in one
 * warning (`3 other fields`).
 */
export function describeUnknownFields(options: JSONObject): TranslationWarning[] {
  const unknown = options[UNKNOWN_FIELDS_OPTION];
  if (!isJSONObject(unknown)) return [];
  const fields = Object.keys(unknown);
  const named = fields.filter(isPlainFieldName).slice(0, MAX_NAMED_UNKNOWN_FIELDS);
  const warnings: TranslationWarning[] = named.map(field => ({ type: 'unknown-field', field, details: DROPPED }));
  const others = fields.length - named.length;
  if (others > 0) {
    warnings.push({ type: 'unknown-field', field: `${others} other field${others === 1 ? '' : 's'}`, details: DROPPED });
  }
  return warnings;
}

const DROPPED = "not a field the gateway knows; the route's upstream speaks another protocol, so it was not sent";

function isPlainFieldName(field: string): boolean {
  return /^[a-z][a-z0-9_]{0,63}$/.test(field);
}
