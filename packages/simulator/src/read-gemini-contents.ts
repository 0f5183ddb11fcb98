import { countPromptCharacters, createPromptBlockList } from './prompt-blocks';
import { asRecord, asString } from './read-text-content';
import type { PromptBlock } from './simulated-request';
import { simulatorError, type SimulatorError } from './simulator-error';

/** A Gemini conversation read for the model: its prompt blocks and what the answer is seeded from. */
export type GeminiPrompt = {
  blocks: PromptBlock[];
  characters: number;
  lastUserText: string;
  /** The `functionResponse` texts of a conversation that ends with them. */
  trailingToolResults: string[];
  /** `functionResponse` parts since the last user text. */
  toolResultsSinceUserText: number;
};

const ROLES: ReadonlySet<string> = new Set(['user', 'model']);

/**
 * `systemInstruction`, function declarations and `contents` → prompt blocks (declarations count no
 * tokens but key the cache). Refuses what the API refuses: no contents, a role other than
 * `user`/`model`, a content without parts.
 * @see https://ai.google.dev/api/generate-content#request-body
 */
export function readGeminiContents(body: Record<string, unknown>, declarations: readonly Record<string, unknown>[]): GeminiPrompt | SimulatorError {
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) return simulatorError(400, '* GenerateContentRequest.contents: contents is not specified\n');
  const prompt = createPromptBlockList();
  prompt.addTools(declarations);
  for (const part of partsOf(asRecord(body.systemInstruction ?? body.system_instruction))) prompt.add('system', asString(part.text) ?? '');
  const result: GeminiPrompt = { blocks: prompt.blocks, characters: 0, lastUserText: '', trailingToolResults: [], toolResultsSinceUserText: 0 };
  for (const [index, entry] of contents.entries()) {
    const content = asRecord(entry);
    const role = content?.role ?? 'user';
    if (typeof role !== 'string' || !ROLES.has(role)) return simulatorError(400, 'Please use a valid role: user, model.');
    const parts = partsOf(content);
    if (parts.length === 0) return simulatorError(400, `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.\n`);
    const turn = { text: '', toolResults: [] as string[] };
    for (const part of parts) {
      const { label, text } = readPart(part);
      prompt.add(`${role}:${label}`, text);
      if (label === 'text' && role === 'user') turn.text = turn.text === '' ? text : `${turn.text}\n${text}`;
      if (label === 'functionResponse') turn.toolResults.push(text);
    }
    result.trailingToolResults = role === 'user' ? turn.toolResults : [];
    result.toolResultsSinceUserText += result.trailingToolResults.length;
    if (turn.text !== '') {
      result.lastUserText = turn.text;
      result.toolResultsSinceUserText = 0;
    }
  }
  result.characters = countPromptCharacters(prompt.blocks);
  return result;
}

/** A content's parts that are objects (none when `parts` is missing). */
export function partsOf(content: Record<string, unknown> | undefined): Record<string, unknown>[] {
  const parts = content?.parts;
  if (!Array.isArray(parts)) return [];
  return parts.map(asRecord).filter((part): part is Record<string, unknown> => part !== undefined);
}

/** One part's kind and the text the model reads of it (a call's arguments, a result's output). */
function readPart(part: Record<string, unknown>): { label: string; text: string } {
  if (typeof part.text === 'string') return { label: part.thought === true ? 'thought' : 'text', text: part.text };
  const call = asRecord(part.functionCall);
  if (call !== undefined) return { label: 'functionCall', text: JSON.stringify(call.args ?? {}) };
  const response = asRecord(part.functionResponse);
  if (response !== undefined) return { label: 'functionResponse', text: resultText(asRecord(response.response)) };
  return { label: 'media', text: '' };
}

/** What a function's result says: its `output` or `result` text as Gemini CLI and the docs send it, else its JSON. */
function resultText(response: Record<string, unknown> | undefined): string {
  if (response === undefined) return '';
  const text = asString(response.output) ?? asString(response.result) ?? asString(response.content);
  return text ?? JSON.stringify(response);
}
