import { readQuotedValues } from './user-request-text';

/**
 * What a prompt names that a tool could take as an argument, each list in the order of the prompt,
 * values quoted in backticks first: file names and paths, shell commands and URLs.
 */
export type PromptMentions = {
  /** Every value quoted in backticks, in order, whatever it looks like. */
  quoted: readonly string[];
  paths: readonly string[];
  commands: readonly string[];
  urls: readonly string[];
};

export const NO_MENTIONS: PromptMentions = { quoted: [], paths: [], commands: [], urls: [] };

/** The most of each kind kept. */
const MAX_MENTIONS = 8;
/** How much of the prompt is read for mentions: a request's words come first, a pasted file after them. */
const MAX_SCANNED_CHARACTERS = 10_000;
const MAX_COMMAND_CHARACTERS = 500;

const URL = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`]+/gi;
/** Characters of a path as people write them (no spaces: a path with spaces needs backticks). */
const PATH_CHARACTERS = /^[\p{L}\p{N}_.~/\\@+-]+$/u;
/** `notes.txt`, `src/index.ts`: a name with an extension that starts with a letter. */
const FILE_NAME = /(^|[/\\])[\p{L}\p{N}_@+-][\p{L}\p{N}_.@+-]*\.[A-Za-z][A-Za-z0-9]{0,7}$/u;
/** `.env`, `.gitignore`. */
const DOT_FILE = /(^|[/\\])\.[A-Za-z][\w.-]+$/;
/** `/etc/hosts`, `./build`, `../x`, `~/notes`: a path by where it starts. */
const ROOTED_PATH = /^(\/[^/]|\.{1,2}\/|~\/)/;
/** Punctuation around a word of prose (`(notes.txt),` → `notes.txt`). */
const SURROUNDING = /^["'([{<]+|["')\]}>,;:!?.]+$/g;
/**
 * "run ls -la", "execute `npm test`", "run the command git status": the command runs to the end of
 * the clause (a full stop, `?`, `!`, `;` or a comma followed by a space, or " and …"/" then …").
 */
const RUN_COMMAND = /\b(?:run|execute|exec)[ \t]+(?:the[ \t]+command[ \t]+|command[ \t]+)?(.+?)(?=[.!?;,](?:\s|$)|[ \t]+(?:and|then)[ \t]|\n|$)/gi;
/** "run `ls`": a quoted value right after the verb is the command, one word or several. */
const RUN_QUOTED = /\b(?:run|execute|exec)[ \t]+(?:the[ \t]+command[ \t]+|command[ \t]+)?`([^`\n]+)`/gi;
/** A shell line pasted as such: `$ ls -la`. */
const PROMPT_LINE = /^\s*\$ (.+)$/gm;
/** What follows "run" in prose that is no command ("run the tests", "run a check"). */
const NOT_A_COMMAND = /^(?:the|a|an|this|that|these|those|it|my|our|your|all|some|any)\b/i;

/**
 * The file names, paths, shell commands and URLs a prompt mentions, as a model reading it would
 * take them for a tool's arguments: backtick-quoted values by their look (a value with a space is
 * a command), then the prose: path-like words, what follows "run"/"execute", `$ …` lines and URLs.
 * Only the first 10,000 characters are read, so a long prompt costs no more than a short one.
 */
export function readPromptMentions(text: string): PromptMentions {
  const prompt = text.slice(0, MAX_SCANNED_CHARACTERS);
  const quoted = readQuotedValues(prompt);
  // A quoted value ends the clause around it, so "run `ls` in /tmp" does not read "in /tmp" as the command.
  const prose = prompt.replace(/`[^`\n]+`/g, '\n');
  const quotedRuns = [...prompt.matchAll(RUN_QUOTED)].map(match => (match[1] ?? '').trim());
  const mentions = {
    quoted: quoted.slice(0, MAX_MENTIONS),
    paths: [...quoted.filter(looksLikePath), ...prosePaths(prose)],
    commands: [...quotedRuns, ...quoted.filter(looksLikeCommand), ...proseCommands(prose)],
    urls: [...quoted.filter(value => URL.test(value)), ...[...prose.matchAll(URL_IN_TEXT)].map(match => trimPunctuation(match[0]))],
  };
  return {
    quoted: mentions.quoted,
    paths: distinct(mentions.paths),
    commands: distinct(mentions.commands),
    urls: distinct(mentions.urls),
  };
}

/** A file name or path: `notes.txt`, `/work/notes`, `./build`, `src/app.ts`, `.env` (not a URL, no spaces). */
export function looksLikePath(value: string): boolean {
  if (value.length < 2 || !PATH_CHARACTERS.test(value) || value.includes('://')) return false;
  if (ROOTED_PATH.test(value) || DOT_FILE.test(value)) return true;
  // At least four characters, so that "e.g" and "i.e" are no file names.
  return value.length >= 4 && FILE_NAME.test(value);
}

/** A quoted value with a space in it is a command line (`cat notes.txt`), unless it reads as a URL. */
function looksLikeCommand(value: string): boolean {
  return /\s/.test(value) && !URL.test(value);
}

function prosePaths(prose: string): string[] {
  return prose
    .split(/\s+/)
    .map(trimPunctuation)
    .filter(word => looksLikePath(word));
}

function proseCommands(prose: string): string[] {
  const commands: string[] = [];
  for (const match of prose.matchAll(PROMPT_LINE)) commands.push((match[1] ?? '').trim());
  for (const match of prose.matchAll(RUN_COMMAND)) {
    const command = (match[1] ?? '').trim();
    if (command !== '' && !NOT_A_COMMAND.test(command)) commands.push(command);
  }
  return commands.filter(command => command !== '' && command.length <= MAX_COMMAND_CHARACTERS);
}

function trimPunctuation(word: string): string {
  return word.replace(SURROUNDING, '');
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values.filter(value => value !== ''))].slice(0, MAX_MENTIONS);
}
