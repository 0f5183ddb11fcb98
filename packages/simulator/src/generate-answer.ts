import type { AnswerFinish, AnswerPlan, PlannedReasoning, PlannedToolCall } from './answer-plan';
import { createRandom, type Random } from './create-random';
import { generateToolArguments } from './generate-tool-arguments';
import { hashText } from './hash-text';
import { tokensOf } from './prompt-cache-usage';
import { stripScenarioDirectives } from './scenario-directives';
import { chooseTools } from './choose-tools';
import type { SimulatedRequest, SimulatedTool } from './simulated-request';
import { splitIntoFragments } from './split-into-fragments';
import { NO_MENTIONS, readPromptMentions, type PromptMentions } from './read-prompt-mentions';
import { userRequestText } from './user-request-text';
import { REASONING_WORD_LIST, WORD_LIST } from './word-list';

/**
 * Sizes of one answer (the visible text and, when asked for, the reasoning), and how many tool
 * results the model waits for before it answers from them (`[[sim:tool-rounds=N]]`; default 1).
 */
export type AnswerSettings = { answerTokens: number; reasoningTokens: number; toolRounds?: number };

const ECHO_WORDS = 3;
const MAX_PROMPT_WORDS = 32;
const TOOL_RESULT_SNIPPET = 40;

/**
 * The simulated model: a pure function of the request. The user's request (the last user text
 * without scenario markers and without the context blocks an agent wraps around it) and any
 * trailing tool result seed a PRNG that picks words, so the same prompt always gives the same answer.
 */
export function generateAnswer(request: SimulatedRequest, settings: AnswerSettings): AnswerPlan {
  const prompt = userRequestText(stripScenarioDirectives(request.lastUserText));
  const results = request.trailingToolResults.map(stripScenarioDirectives);
  const random = createRandom(results.reduce((seed, result) => hashText(result, seed), hashText(prompt)));
  const promptWords = extractWords(prompt);
  const inputTokens = Math.max(1, tokensOf(request.inputCharacters));
  let budget = Math.max(0, request.maxOutputTokens ?? Number.POSITIVE_INFINITY);

  const reasoning = request.reasoning ? planReasoning(random, promptWords, settings.reasoningTokens, budget) : undefined;
  const reasoningTokens = reasoning?.tokens.length ?? 0;
  budget -= reasoningTokens;
  if (reasoning !== undefined && !reasoning.complete) {
    return finishPlan({ reasoning, textTokens: [], toolCalls: [], finish: 'length', stopSequence: undefined }, inputTokens);
  }
  // Read only when there are tools to call: a plain chat turn costs nothing more.
  const mentions = request.tools.length > 0 ? readPromptMentions(prompt) : NO_MENTIONS;
  const tools = chooseTools(request, prompt, mentions, settings.toolRounds);
  if (tools.length > 0) {
    const idSeed = hashText(String(request.inputCharacters), hashText(prompt));
    return finishPlan({ reasoning, ...planToolCalls(tools, random, { promptWords, mentions }, budget, idSeed) }, inputTokens);
  }
  if (request.responseSchema !== undefined) {
    const json = JSON.stringify(generateToolArguments(request.responseSchema, random, promptWords));
    return finishPlan({ reasoning, ...limitText(splitIntoFragments(json), [], budget) }, inputTokens);
  }
  const tokens = answerTokens(random, promptWords, results, settings.answerTokens);
  return finishPlan({ reasoning, ...limitText(tokens, request.stopSequences, budget) }, inputTokens);
}

/** What tool arguments are filled from: the prompt's words and what it mentions (paths, commands, quoted values). */
type ArgumentSource = { promptWords: readonly string[]; mentions: PromptMentions };

type PlanParts = Omit<AnswerPlan, 'text' | 'usage'>;

function finishPlan(parts: PlanParts, inputTokens: number): AnswerPlan {
  const reasoningTokens = parts.reasoning?.tokens.length ?? 0;
  const toolTokens = parts.toolCalls.reduce((sum, call) => sum + toolCallTokens(call.arguments), 0);
  return {
    ...parts,
    text: parts.textTokens.join(''),
    usage: { inputTokens, outputTokens: reasoningTokens + parts.textTokens.length + toolTokens, reasoningTokens },
  };
}

function planReasoning(random: Random, promptWords: readonly string[], size: number, budget: number): PlannedReasoning {
  const words = ['Consider'];
  if (promptWords[0] !== undefined) words.push(promptWords[0]);
  while (words.length < size) words.push(REASONING_WORD_LIST[random.below(REASONING_WORD_LIST.length)] ?? 'step');
  const all = toTokens(words.slice(0, size));
  const tokens = all.slice(0, Math.min(all.length, budget));
  const text = tokens.join('');
  const seed = hashText(text, random.next());
  return {
    tokens,
    text,
    complete: tokens.length === all.length,
    signature: opaqueBase64(seed, 48),
    encryptedContent: opaqueBase64(seed ^ 0x5bd1e995, 96),
  };
}

function planToolCalls(tools: readonly SimulatedTool[], random: Random, source: ArgumentSource, budget: number, idSeed: number) {
  const names = tools.map(tool => tool.name);
  const leadIn = toTokens(['I', 'will', 'call', ...names.flatMap((name, index) => (index === 0 ? [name] : ['and', name]))]);
  const toolCalls = tools.map((tool, index) => planToolCall(tool, random, source, hashText(`${index}:${tool.name}`, idSeed)));
  const toolTokens = toolCalls.reduce((sum, call) => sum + toolCallTokens(call.arguments), 0);
  if (leadIn.length + toolTokens <= budget) {
    return { textTokens: leadIn, toolCalls, finish: 'tool-calls' as const, stopSequence: undefined };
  }
  // The cap falls inside the tool calls: keep the text that fits and drop the unfinished calls.
  return { textTokens: leadIn.slice(0, budget), toolCalls: [], finish: 'length' as const, stopSequence: undefined };
}

function planToolCall(tool: SimulatedTool, random: Random, source: ArgumentSource, idSeed: number): PlannedToolCall {
  const input = generateToolArguments(tool.parameters, random, source.promptWords, source.mentions);
  const text = JSON.stringify(input);
  const idSuffix = opaqueHex(idSeed, 24);
  return {
    name: tool.name,
    ...(tool.namespace !== undefined && { namespace: tool.namespace }),
    idSuffix,
    arguments: text,
    argumentFragments: splitIntoFragments(text),
    input,
  };
}

function answerTokens(random: Random, promptWords: readonly string[], results: readonly string[], size: number): string[] {
  const words: string[] = [];
  if (results.length > 0) {
    words.push('Tool', 'result:', ...results.flatMap(quoteResult));
  } else {
    words.push(...promptWords.slice(0, ECHO_WORDS));
  }
  while (words.length < size) words.push(WORD_LIST[random.below(WORD_LIST.length)] ?? 'word');
  return toTokens(words);
}

function limitText(tokens: readonly string[], stopSequences: readonly string[], budget: number) {
  const stop = findStop(tokens, stopSequences);
  if (stop !== undefined && stop.index <= budget) {
    return { textTokens: tokens.slice(0, stop.index), toolCalls: [], finish: 'stop-sequence' as AnswerFinish, stopSequence: stop.sequence };
  }
  const finish: AnswerFinish = tokens.length > budget ? 'length' : 'stop';
  return { textTokens: tokens.slice(0, Math.min(tokens.length, budget)), toolCalls: [], finish, stopSequence: undefined };
}

function findStop(tokens: readonly string[], stopSequences: readonly string[]) {
  if (stopSequences.length === 0) return undefined;
  for (let index = 0; index < tokens.length; index += 1) {
    const word = (tokens[index] ?? '').trim();
    const sequence = stopSequences.find(candidate => candidate.trim() !== '' && candidate.trim() === word);
    if (sequence !== undefined) return { index, sequence };
  }
  return undefined;
}

/** Words → tokens: capitalised first word, a leading space on every later one, a full stop at the end. */
function toTokens(words: readonly string[]): string[] {
  const last = words.length - 1;
  return words.map((word, index) => {
    const text = index === last && !/[.!?:]$/.test(word) ? `${word}.` : word;
    return index === 0 ? text.charAt(0).toUpperCase() + text.slice(1) : ` ${text}`;
  });
}

/** The first words of the prompt (bounded, so nothing here scales with a long prompt). */
function extractWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu)) {
    words.push(match[0]);
    if (words.length === MAX_PROMPT_WORDS) break;
  }
  return words;
}

/**
 * What the answer quotes of one tool result: its first 40 characters and, when the result has more
 * lines, its last non-empty line (cut to 40 characters) — where a shell tool's output sits after
 * the agent's own header lines (Codex: `Chunk ID: …`, `Wall time: …`, `Output:`).
 */
function quoteResult(result: string): string[] {
  const quoted = [firstCharacters(result, TOOL_RESULT_SNIPPET)];
  const lines = result.split('\n').filter(line => line.trim() !== '');
  const lastLine = lines.length > 1 ? (lines.at(-1) as string).trim() : undefined;
  if (lastLine !== undefined && !quoted[0]!.includes(lastLine)) quoted.push('…', firstCharacters(lastLine, TOOL_RESULT_SNIPPET));
  return quoted;
}

function firstCharacters(text: string, count: number): string {
  let result = '';
  let taken = 0;
  for (const character of text) {
    if (taken === count) break;
    result += character;
    taken += 1;
  }
  return result;
}

function toolCallTokens(argumentsText: string): number {
  return Math.max(1, Math.ceil(argumentsText.length / 4));
}

function opaqueBase64(seed: number, bytes: number): string {
  const random = createRandom(seed);
  const buffer = Buffer.alloc(bytes);
  for (let index = 0; index < bytes; index += 4) buffer.writeUInt32LE(random.next(), Math.min(index, bytes - 4));
  return buffer.toString('base64');
}

function opaqueHex(seed: number, length: number): string {
  const random = createRandom(seed);
  let text = '';
  while (text.length < length) text += random.next().toString(16).padStart(8, '0');
  return text.slice(0, length);
}
