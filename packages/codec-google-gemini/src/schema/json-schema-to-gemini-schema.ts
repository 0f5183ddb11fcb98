import { isJSONObject, type JSONObject } from '@signalbox/core';
import { SHARED_SCHEMA_KEYWORDS } from './schema-keywords';

const KEPT_KEYWORDS = new Set<string>(SHARED_SCHEMA_KEYWORDS);

/** Keywords whose loss changes nothing the model is asked for. */
const IGNORED_KEYWORDS = new Set(['$schema', 'additionalProperties', 'examples', 'strict']);

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

/**
 * JSON Schema → a Gemini `Schema` (the OpenAPI subset: upper-case `type`, `nullable`), or
 * `undefined` when the schema uses what the subset cannot say (`$ref`, `oneOf`, `allOf`, `const`,
 * several non-null types…): the encoder then sends it whole as `parametersJsonSchema` /
 * `responseJsonSchema`, which Gemini takes as JSON Schema.
 * @see https://ai.google.dev/api/caching#Schema
 */
export function jsonSchemaToGeminiSchema(schema: JSONObject): JSONObject | undefined {
  const converted: JSONObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (value === undefined || IGNORED_KEYWORDS.has(keyword)) continue;
    if (KEPT_KEYWORDS.has(keyword)) converted[keyword] = value;
    else if (keyword === 'type') {
      if (!setType(converted, value)) return undefined;
    } else if (keyword === 'properties' && isJSONObject(value)) {
      const properties: JSONObject = {};
      for (const [name, property] of Object.entries(value)) {
        const inner = isJSONObject(property) ? jsonSchemaToGeminiSchema(property) : undefined;
        if (inner === undefined) return undefined;
        properties[name] = inner;
      }
      converted.properties = properties;
    } else if (keyword === 'items' && isJSONObject(value)) {
      const items = jsonSchemaToGeminiSchema(value);
      if (items === undefined) return undefined;
      converted.items = items;
    } else return undefined;
  }
  return converted;
}

/** `type` as the subset says it: one upper-case name, `null` among two as `nullable`. */
function setType(converted: JSONObject, value: unknown): boolean {
  const types = Array.isArray(value) ? value : [value];
  if (!types.every(type => typeof type === 'string' && TYPES.has(type))) return false;
  const named = (types as string[]).filter(type => type !== 'null');
  if (named.length !== 1) return false;
  converted.type = named[0]!.toUpperCase();
  if (named.length !== types.length) converted.nullable = true;
  return true;
}
