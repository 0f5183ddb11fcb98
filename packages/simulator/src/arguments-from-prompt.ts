import { isSchema, propertySchema, requiredOf, schemaType, takesText, type JsonSchema } from './json-schema';
import type { PromptMentions } from './read-prompt-mentions';
import { splitName } from './split-name';

/** What kind of value an argument is, as its name says. */
export type ArgumentKind = 'path' | 'command' | 'url';

/** The words of a property's name that make it a path, a shell command or a URL (`file_path`, `cmd`, `url`). */
const KIND_WORDS: ReadonlyArray<readonly [ArgumentKind, ReadonlySet<string>]> = [
  ['command', new Set(['command', 'cmd', 'script'])],
  ['path', new Set(['path', 'file', 'filename', 'filepath', 'dir', 'directory', 'folder'])],
  ['url', new Set(['url', 'uri'])],
];

/** `file_path`, `notebookPath` → path; `command`, `cmd` → command; `url` → url; others none. */
export function argumentKindOf(name: string): ArgumentKind | undefined {
  const words = splitName(name);
  return KIND_WORDS.find(([, kindWords]) => words.some(word => kindWords.has(word)))?.[0];
}

/**
 * The top-level required arguments the prompt gives, as a model told "read notes.txt" or "run
 * `ls -la`" passes exactly that: a property whose name makes it a path, a command or a URL takes
 * the first such mention not taken yet; any other free-text property the next value the prompt
 * quotes in backticks. An array of strings takes a command as `['bash', '-lc', command]` (a shell
 * tool's argv) and anything else as its one item. Empty when the prompt gives none of them.
 */
export function argumentsFromPrompt(schema: JsonSchema, mentions: PromptMentions): Map<string, unknown> {
  const given = new Map<string, unknown>();
  const taken = new Set<string>();
  const next = (values: readonly string[]) => values.find(value => !taken.has(value));
  for (const name of requiredOf(schema)) {
    const property = propertySchema(schema, name);
    const kind = argumentKindOf(name);
    const mentioned = kind === undefined ? undefined : next(mentionsOf(mentions, kind));
    const candidate = mentioned ?? (takesText(property) ? next(mentions.quoted) : undefined);
    const value = candidate === undefined ? undefined : valueFor(property, kind, candidate);
    if (value === undefined) continue;
    given.set(name, value);
    taken.add(candidate as string);
  }
  return given;
}

/** Whether the schema requires an argument of this kind that a mention can fill (a shell tool's command). */
export function requiresArgumentOf(schema: unknown, kind: ArgumentKind): boolean {
  if (!isSchema(schema)) return false;
  return requiredOf(schema).some(name => argumentKindOf(name) === kind && valueFor(propertySchema(schema, name), kind, 'x') !== undefined);
}

function mentionsOf(mentions: PromptMentions, kind: ArgumentKind): readonly string[] {
  if (kind === 'path') return mentions.paths;
  return kind === 'command' ? mentions.commands : mentions.urls;
}

function valueFor(property: JsonSchema, kind: ArgumentKind | undefined, text: string): unknown {
  if (takesText(property)) return text;
  const items = isSchema(property.items) ? property.items : {};
  if (schemaType(property) !== 'array' || schemaType(items) !== 'string') return undefined;
  return kind === 'command' ? ['bash', '-lc', text] : [text];
}
