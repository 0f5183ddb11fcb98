/** One fenced TypeScript block of a markdown document. */
export type CodeBlock = {
  /** The document, relative to the repository root (`README.md`, `packages/core/README.md`). */
  document: string;
  /** 1-based position among the document's TypeScript blocks (skipped ones included). */
  index: number;
  /** 1-based line of the block's first code line in the document. */
  line: number;
  /** The info string after the fence (`ts skip-compile`). */
  info: string;
  code: string;
  /** True when the block says it is not meant to compile on its own. */
  skipped: boolean;
};

const typeScriptLanguages = new Set(['ts', 'typescript']);
const skipWord = 'skip-compile';
const illustrationComment = /^\/\/\s*illustration only\b/i;

/**
 * The fenced ```ts / ```typescript blocks of a markdown document, as CommonMark fences them: a
 * fence of three or more backticks or tildes (indented at most three spaces), closed by a fence of
 * the same character at least as long, or by the end of the document. The code keeps its lines
 * with the fence's indentation removed. Blocks of other languages are left out; a block is marked
 * `skipped` when its info string contains `skip-compile` or its first non-blank line is the comment
 * `// illustration only`.
 */
export function extractCodeBlocks(document: string, markdown: string): CodeBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  let position = 0;
  while (position < lines.length) {
    const opening = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(lines[position]!);
    position += 1;
    if (!opening) continue;
    const [, indent, fence, rest] = opening as unknown as [string, string, string, string];
    const info = rest.trim();
    // A backtick fence's info string may not contain a backtick (that is inline code, not a fence).
    if (fence.startsWith('`') && info.includes('`')) continue;
    const start = position;
    const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    while (position < lines.length && !closing.test(lines[position]!)) position += 1;
    const body = lines.slice(start, position).map(line => removeIndent(line, indent.length));
    position += 1;
    const words = info.split(/\s+/);
    if (!typeScriptLanguages.has(words[0]!.toLowerCase())) continue;
    const firstCode = body.find(line => line.trim() !== '') ?? '';
    blocks.push({
      document,
      index: blocks.length + 1,
      line: start + 1,
      info,
      code: body.join('\n'),
      skipped: words.includes(skipWord) || illustrationComment.test(firstCode.trim()),
    });
  }
  return blocks;
}

/** Up to `width` leading spaces, as a fence indented that far removes them from its content. */
function removeIndent(line: string, width: number): string {
  let removed = 0;
  while (removed < width && line[removed] === ' ') removed += 1;
  return line.slice(removed);
}
