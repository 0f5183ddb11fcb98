/**
 * The keywords Gemini's OpenAPI-subset `Schema` and JSON Schema spell and mean alike: copied as
 * they are in both directions.
 * @see https://ai.google.dev/api/caching#Schema
 */
export const SHARED_SCHEMA_KEYWORDS = [
  'description',
  'title',
  'format',
  'enum',
  'required',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'default',
  'minProperties',
  'maxProperties',
] as const;
