import { argumentsFromPrompt } from './arguments-from-prompt';
import type { Random } from './create-random';
import { isSchema, propertiesOf, propertySchema, requiredOf, schemaType, type JsonSchema } from './json-schema';
import { NO_MENTIONS, type PromptMentions } from './read-prompt-mentions';
import { WORD_LIST } from './word-list';

type ArgumentContext = { random: Random; promptWords: readonly string[]; strings: number };

const MAX_DEPTH = 4;
const MAX_ITEMS = 8;

/**
 * Deterministic arguments for a tool from its JSON schema, valid against it: strings take words of
 * the prompt (last word first; a word of the fixed list when the prompt has none), padded or cut to
 * `minLength`/`maxLength`; numbers `1` (moved into `minimum`/`maximum`); booleans `true`; `const`
 * and enums their (first) value; arrays `minItems` items (at least one); nested objects recursively.
 * Every declared property is filled, so required ones always are.
 *
 * When the prompt says what to pass, as a user of a coding agent does ("read notes.txt", "run
 * `ls -la`"), the model passes that (`argumentsFromPrompt`: the file names, paths, commands and URLs
 * it mentions, the values it quotes in backticks) and fills only the other required properties, so
 * the agent's own defaults apply to the optional ones. Quoting anything counts as saying what to pass.
 */
export function generateToolArguments(
  schema: unknown,
  random: Random,
  promptWords: readonly string[],
  mentions: PromptMentions = NO_MENTIONS,
): Record<string, unknown> {
  const context: ArgumentContext = { random, promptWords, strings: 0 };
  const objectSchema = isSchema(schema) ? schema : {};
  const given = argumentsFromPrompt(objectSchema, mentions);
  if (given.size === 0 && mentions.quoted.length === 0) return generateObject(objectSchema, context, 0);
  const result: Record<string, unknown> = {};
  for (const name of requiredOf(objectSchema)) {
    result[name] = given.has(name) ? given.get(name) : generateValue(propertySchema(objectSchema, name), context, 1);
  }
  return result;
}

function generateObject(schema: JsonSchema, context: ArgumentContext, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    result[name] = generateValue(isSchema(property) ? property : {}, context, depth + 1);
  }
  for (const name of requiredOf(schema)) {
    if (!(name in result)) result[name] = nextString(context);
  }
  return result;
}

function generateValue(schema: JsonSchema, context: ArgumentContext, depth: number): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const alternative = firstAlternative(schema);
  if (alternative !== undefined) return generateValue(alternative, context, depth);
  switch (schemaType(schema)) {
    case 'integer':
    case 'number':
      return smallNumber(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return depth >= MAX_DEPTH ? [] : generateArray(schema, context, depth);
    case 'object':
      return depth >= MAX_DEPTH ? {} : generateObject(schema, context, depth);
    default:
      return fitLength(nextString(context), schema);
  }
}

function generateArray(schema: JsonSchema, context: ArgumentContext, depth: number): unknown[] {
  const count = Math.max(1, Math.min(MAX_ITEMS, typeof schema.minItems === 'number' ? schema.minItems : 1));
  const items = isSchema(schema.items) ? schema.items : {};
  return Array.from({ length: count }, () => generateValue(items, context, depth + 1));
}

function fitLength(text: string, schema: JsonSchema): string {
  const minimum = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maximum = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  const padded = text.length >= minimum ? text : text.padEnd(minimum, 'x');
  return padded.length <= maximum ? padded : padded.slice(0, maximum);
}

function firstAlternative(schema: JsonSchema): JsonSchema | undefined {
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const nonNull = options.find(option => isSchema(option) && option.type !== 'null') ?? options[0];
      if (isSchema(nonNull)) return nonNull;
    }
  }
  return undefined;
}

/** `1`, moved into the schema's bounds when they exclude it. */
function smallNumber(schema: JsonSchema): number {
  const minimum = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : undefined;
  const exclusiveMinimum = typeof schema.exclusiveMinimum === 'number' ? Math.floor(schema.exclusiveMinimum) + 1 : undefined;
  const maximum = typeof schema.maximum === 'number' ? Math.floor(schema.maximum) : undefined;
  const lowest = Math.max(minimum ?? Number.NEGATIVE_INFINITY, exclusiveMinimum ?? Number.NEGATIVE_INFINITY);
  if (lowest > 1) return lowest;
  if (maximum !== undefined && maximum < 1) return maximum;
  return 1;
}

function nextString(context: ArgumentContext): string {
  const { promptWords } = context;
  const index = context.strings;
  context.strings += 1;
  if (promptWords.length === 0) return WORD_LIST[context.random.below(WORD_LIST.length)] ?? 'value';
  return promptWords[promptWords.length - 1 - (index % promptWords.length)] ?? 'value';
}
