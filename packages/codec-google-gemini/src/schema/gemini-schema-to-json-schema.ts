import { isJSONObject, type JSONObject, type JSONValue } from '@signalbox/core';
import { SHARED_SCHEMA_KEYWORDS } from './schema-keywords';

/**
 * A Gemini `Schema` (the OpenAPI 3.0 subset of `parameters` and `responseSchema`, with upper-case
 * `type` names and `nullable`) → JSON Schema: types lower-cased, `nullable` a `null` type,
 * `propertyOrdering` and `example` left out (hints with no JSON Schema keyword).
 * @see https://ai.google.dev/api/caching#Schema
 */
export function geminiSchemaToJSONSchema(schema: JSONObject): JSONObject {
  const converted: JSONObject = {};
  const type = typeof schema.type === 'string' ? schema.type.toLowerCase() : undefined;
  if (type !== undefined && type !== 'type_unspecified') converted.type = schema.nullable === true ? [type, 'null'] : type;
  for (const keyword of SHARED_SCHEMA_KEYWORDS) if (schema[keyword] !== undefined) converted[keyword] = schema[keyword];
  if (isJSONObject(schema.properties)) converted.properties = mapValues(schema.properties);
  if (isJSONObject(schema.items)) converted.items = geminiSchemaToJSONSchema(schema.items);
  if (Array.isArray(schema.anyOf)) converted.anyOf = schema.anyOf.map(convertValue);
  return converted;
}

function mapValues(properties: JSONObject): JSONObject {
  return Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, convertValue(value)]));
}

function convertValue(value: JSONValue | undefined): JSONValue {
  return isJSONObject(value) ? geminiSchemaToJSONSchema(value) : (value ?? {});
}
