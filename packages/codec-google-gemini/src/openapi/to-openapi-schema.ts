import type { JSONObject } from '@signalbox/core';
import { z } from 'zod';

/**
 * A zod schema as a JSON Schema 2020-12 object (the dialect of OpenAPI 3.1): `input` describes what a
 * client may send (defaults optional, transforms' input side), `output` what the gateway answers.
 * Refinements zod cannot express are left out rather than failing the whole document.
 */
export function toOpenAPISchema(schema: z.ZodType, io: 'input' | 'output'): JSONObject {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  return jsonSchema as JSONObject;
}
