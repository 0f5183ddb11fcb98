/**
 * A field the target protocol could not carry exactly; reported, never silently lost.
 * `unknown-field`: a top-level field the gateway does not know, forwarded untouched on a
 * same-protocol route and dropped on a translated one.
 */
export type TranslationWarning =
  | { type: 'unsupported-field'; field: string; details?: string }
  | { type: 'unknown-field'; field: string; details?: string }
  | { type: 'lossy-conversion'; field: string; details: string };

/** A translation result with the warnings it produced. */
export type Translated<T> = { value: T; warnings: TranslationWarning[] };
