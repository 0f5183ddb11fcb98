import { requiresArgumentOf } from './arguments-from-prompt';
import type { PromptMentions } from './read-prompt-mentions';
import type { SimulatedRequest, SimulatedTool } from './simulated-request';
import { splitName } from './split-name';

const MIN_DESCRIPTION_WORD = 4;
const NAME_SCORE = 100;
const COMMON_WORDS = new Set(['that', 'this', 'with', 'from', 'into', 'your', 'what', 'when', 'which', 'will', 'have', 'tool', 'tools', 'about', 'given', 'returns', 'return', 'use']);

/**
 * The tools the simulated model calls now, like a model that reads its prompt: none when tools are
 * off or the conversation ends with a tool result (the model answers from it instead; with
 * `toolRounds`, once that many results came back since the user's text: a tool loop); the forced
 * tool when `tool_choice` names one; otherwise the tool the user's request (`prompt`: the last user
 * text without an agent's context blocks) asks for — by its name (`get_weather`, "get weather") or,
 * failing that, by the most words of its description's first sentence; failing that, when the
 * prompt asks to run a command ("run ls -la"), the first tool that takes a shell command. When
 * nothing matches, the model answers in text, unless `tool_choice` requires a call (then the first
 * tool offered). The word `parallel` asks for two matching calls when parallel calls are allowed.
 */
export function chooseTools(request: SimulatedRequest, prompt: string, mentions: PromptMentions, toolRounds = 1): SimulatedTool[] {
  const { tools, toolChoice } = request;
  const answered = request.trailingToolResults.length > 0 && request.toolResultsSinceUserText >= toolRounds;
  if (tools.length === 0 || toolChoice.type === 'none' || answered) return [];
  if (toolChoice.type === 'tool') {
    return [tools.find(tool => tool.name === toolChoice.name) ?? (tools[0] as SimulatedTool)];
  }
  const matching = matchingTools(tools, prompt);
  if (matching.length === 0) {
    const shell = mentions.commands.length > 0 ? tools.find(tool => requiresArgumentOf(tool.parameters, 'command')) : undefined;
    if (shell !== undefined) return [shell];
    return toolChoice.type === 'required' ? [tools[0] as SimulatedTool] : [];
  }
  const parallel = request.parallelToolCalls && /\bparallel\b/i.test(prompt);
  return matching.slice(0, parallel ? 2 : 1);
}

/** The tools the prompt names or describes, best match first; ties keep the offered order. */
function matchingTools(tools: readonly SimulatedTool[], prompt: string): SimulatedTool[] {
  const text = prompt.toLowerCase();
  const promptWords = new Set(text.match(/[\p{L}\p{N}]+/gu) ?? []);
  const scored = tools.map((tool, index) => ({ tool, index, score: matchScore(tool, text, promptWords) }));
  scored.sort((left, right) => right.score - left.score || left.index - right.index);
  return scored.filter(entry => entry.score > 0).map(entry => entry.tool);
}

function matchScore(tool: SimulatedTool, text: string, promptWords: ReadonlySet<string>): number {
  const nameWords = splitName(tool.name);
  const spokenName = nameWords.join(' ');
  if (containsPhrase(text, tool.name.toLowerCase()) || (spokenName !== '' && containsPhrase(text, spokenName))) {
    return NAME_SCORE + spokenName.length;
  }
  const descriptionWords = new Set(
    (firstSentence(tool.description).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
      word => word.length >= MIN_DESCRIPTION_WORD && !COMMON_WORDS.has(word),
    ),
  );
  let score = 0;
  for (const word of descriptionWords) if (promptWords.has(word)) score += 1;
  return score;
}

/**
 * What a tool says it does: its description up to the first full stop or blank line. Agents write
 * pages of usage notes after it (Claude Code's `Bash`), whose words say nothing about when to call it.
 */
function firstSentence(description: string): string {
  const end = description.search(/\.(\s|$)|\n\s*\n/);
  return end < 0 ? description : description.slice(0, end);
}

/** `phrase` appears in `text` as whole words (not inside a longer word). */
function containsPhrase(text: string, phrase: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(phrase, from);
    if (at < 0) return false;
    const before = text.charAt(at - 1);
    const after = text.charAt(at + phrase.length);
    if (!isWordCharacter(before) && !isWordCharacter(after)) return true;
    from = at + 1;
  }
}

function isWordCharacter(character: string): boolean {
  return character !== '' && /[\p{L}\p{N}_]/u.test(character);
}
