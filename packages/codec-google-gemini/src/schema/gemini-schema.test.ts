import { geminiSchemaToJSONSchema } from './gemini-schema-to-json-schema';
import { jsonSchemaToGeminiSchema } from './json-schema-to-gemini-schema';

describe("Gemini's OpenAPI-subset Schema and JSON Schema", () => {
  const gemini = {
    type: 'OBJECT',
    description: 'A trip',
    properties: {
      city: { type: 'STRING', enum: ['Oslo', 'Bergen'] },
      days: { type: 'INTEGER', minimum: 1, maximum: 14, nullable: true },
      stops: { type: 'ARRAY', items: { type: 'STRING', format: 'date-time' }, minItems: 1 },
    },
    required: ['city'],
  };
  const jsonSchema = {
    type: 'object',
    description: 'A trip',
    properties: {
      city: { type: 'string', enum: ['Oslo', 'Bergen'] },
      days: { type: ['integer', 'null'], minimum: 1, maximum: 14 },
      stops: { type: 'array', items: { type: 'string', format: 'date-time' }, minItems: 1 },
    },
    required: ['city'],
  };

  it('converts both ways without loss where the subset can say it', () => {
    expect(geminiSchemaToJSONSchema(gemini)).toEqual(jsonSchema);
    expect(jsonSchemaToGeminiSchema(jsonSchema)).toEqual(gemini);
  });

  it('leaves out the subset’s hints and keeps anyOf', () => {
    expect(geminiSchemaToJSONSchema({ type: 'OBJECT', propertyOrdering: ['a'], example: {}, anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] })).toEqual({
      type: 'object',
      anyOf: [{ type: 'string' }, { type: 'number' }],
    });
  });

  it.each([
    ['a $ref', { type: 'object', properties: { a: { $ref: '#/$defs/a' } } }],
    ['oneOf', { oneOf: [{ type: 'string' }] }],
    ['const', { type: 'object', properties: { a: { const: 1 } } }],
    ['two types', { type: ['string', 'number'] }],
    ['an unknown type', { type: 'date' }],
  ])('says a schema with %s does not fit the subset', (_what, schema) => {
    expect(jsonSchemaToGeminiSchema(schema)).toBeUndefined();
  });
});
