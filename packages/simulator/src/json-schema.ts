/** A JSON schema as a tool declares it; read leniently, since callers send what they like. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The declared properties of an object schema (none when it declares none). */
export function propertiesOf(schema: JsonSchema): Readonly<Record<string, unknown>> {
  return isSchema(schema.properties) ? schema.properties : {};
}

/** One property's schema, `{}` when it is missing or not a schema. */
export function propertySchema(schema: JsonSchema, name: string): JsonSchema {
  const property = propertiesOf(schema)[name];
  return isSchema(property) ? property : {};
}

/** The names an object schema requires, in its order. */
export function requiredOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
}

/**
 * The schema's type in lower case (Gemini's OpenAPI subset writes `OBJECT`, `STRING`): the first
 * non-null one of a list, `object` when it only declares properties.
 */
export function schemaType(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type.toLowerCase();
  if (Array.isArray(type)) return type.find((entry): entry is string => typeof entry === 'string' && entry.toLowerCase() !== 'null')?.toLowerCase() ?? 'null';
  return isSchema(schema.properties) ? 'object' : undefined;
}

/** A free-text property: a string (or untyped) one that is not fixed by `const` or an `enum`. */
export function takesText(schema: JsonSchema): boolean {
  const type = schemaType(schema);
  return (type === 'string' || type === undefined) && !('const' in schema) && !Array.isArray(schema.enum);
}
