/**
 * Context an agent attaches to the user's turn in tagged blocks (Claude Code's
 * `<system-reminder>…</system-reminder>`, Codex's `<environment_context>…</environment_context>`):
 * a lower-case tag name, its closing tag, anything in between.
 */
const TAGGED_CONTEXT = /<([a-z][a-z0-9_-]*)>[\s\S]*?<\/\1>/g;

/** Values the prompt quotes in backticks: `cat notes.txt`, `/tmp/work/notes.txt`. */
const QUOTED_VALUE = /`([^`\n]+)`/g;

/**
 * What the user asked in their last turn, without the context blocks an agent wraps around it:
 * a model reads those as background, not as the request. Text made only of such blocks is kept.
 */
export function userRequestText(lastUserText: string): string {
  const stripped = lastUserText.replace(TAGGED_CONTEXT, ' ').trim();
  return stripped === '' ? lastUserText : stripped;
}

/** The values a prompt quotes in backticks, in order (none when it quotes nothing). */
export function readQuotedValues(text: string): string[] {
  return [...text.matchAll(QUOTED_VALUE)].map(match => (match[1] ?? '').trim()).filter(value => value !== '');
}
