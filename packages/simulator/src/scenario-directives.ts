/**
 * Failure and pacing scenarios requested by `[[sim:…]]` markers in the last user text (or in a
 * trailing tool result). See the README for the catalogue.
 */
export type ScenarioDirectives = {
  /** `[[sim:cut]]`: a few deltas, then the connection closes without the terminal event. */
  cut: boolean;
  /** `[[sim:stream-error]]`: a few deltas, then the protocol's in-stream error, then close. */
  streamError: boolean;
  /** `[[sim:status=NNN]]`: answer HTTP NNN (400–599) with the path's error envelope. */
  status: number | undefined;
  /** `[[sim:slow=MS]]`: per-token delay override in milliseconds. */
  slowMs: number | undefined;
  /** `[[sim:hang]]`: accept the request and never answer. */
  hang: boolean;
  /** `[[sim:tokens=N]]`: answer length override (1–100000 tokens). */
  outputTokens: number | undefined;
  /** `[[sim:echo-prompt]]`: a `status` error's message quotes the prompt, as some providers quote the input they refuse. */
  echoPrompt: boolean;
  /** `[[sim:tool-rounds=N]]`: call the prompt's tool again after each result until N results came back (1–1000). */
  toolRounds: number | undefined;
  /** `[[sim:finish=SAFETY]]`: the answer is withheld and ends with this Gemini `finishReason` (Gemini routes only). */
  finish: string | undefined;
};

/** Matches one marker; the name is lowercase letters and dashes, the value anything but `]`. */
const DIRECTIVE_PATTERN = /\[\[sim:([a-z-]+)(?:=([^\]]*))?\]\]/g;
const MAX_DIRECTIVE_TOKENS = 100_000;

/** No scenario: a normal answer. */
export const NO_DIRECTIVES: ScenarioDirectives = Object.freeze({
  cut: false,
  streamError: false,
  status: undefined,
  slowMs: undefined,
  hang: false,
  outputTokens: undefined,
  echoPrompt: false,
  toolRounds: undefined,
  finish: undefined,
});

/** Reads every marker in `texts`; unknown names and out-of-range values are ignored. */
export function readScenarioDirectives(texts: readonly string[]): ScenarioDirectives {
  const directives: ScenarioDirectives = { ...NO_DIRECTIVES };
  for (const text of texts) {
    if (!text.includes('[[sim:')) continue;
    for (const match of text.matchAll(DIRECTIVE_PATTERN)) applyDirective(directives, match[1] ?? '', match[2]);
  }
  return directives;
}

/** The text without its markers, so `[[sim:slow=5]] hello` answers exactly like `hello`. */
export function stripScenarioDirectives(text: string): string {
  return text.includes('[[sim:') ? text.replace(DIRECTIVE_PATTERN, '').trim() : text;
}

function applyDirective(directives: ScenarioDirectives, name: string, value: string | undefined): void {
  switch (name) {
    case 'cut':
      directives.cut = true;
      return;
    case 'stream-error':
      directives.streamError = true;
      return;
    case 'hang':
      directives.hang = true;
      return;
    case 'echo-prompt':
      directives.echoPrompt = true;
      return;
    case 'status':
      directives.status = readInteger(value, 400, 599) ?? directives.status;
      return;
    case 'slow':
      directives.slowMs = readInteger(value, 0, 60_000) ?? directives.slowMs;
      return;
    case 'finish':
      directives.finish = value !== undefined && /^[A-Z_]{1,40}$/.test(value.trim()) ? value.trim() : directives.finish;
      return;
    case 'tokens':
      directives.outputTokens = readInteger(value, 1, MAX_DIRECTIVE_TOKENS) ?? directives.outputTokens;
      return;
    case 'tool-rounds':
      directives.toolRounds = readInteger(value, 1, 1_000) ?? directives.toolRounds;
      return;
    default:
      return;
  }
}

function readInteger(value: string | undefined, minimum: number, maximum: number): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const parsed = Number(value.trim());
  return parsed >= minimum && parsed <= maximum ? parsed : undefined;
}
