/**
 * Every fenced TypeScript block (```ts or ```typescript) in `README.md`, `docs/*.md`,
 * `packages/*\/README.md` and `examples/*\/README.md` type-checks, as a host would paste it: each
 * block is its own ES module, compiled with the test compiler options, with `signalbox` and
 * `@signalbox/*` resolving to the packages' built declarations (the build type-checked their
 * sources; this file needs it run first, as ./scripts/test.sh does). All blocks go through one
 * TypeScript program, so the check costs one compilation however many blocks there are.
 *
 * A block that is not meant to compile on its own (a fragment, pseudo-code, an excerpt that uses
 * names defined elsewhere) must say so explicitly, in one of two ways:
 * - `skip-compile` in the fence's info string: ```ts skip-compile
 * - a first line that is the comment `// illustration only`
 * Anything else must compile: declare what the block uses (`declare const config: GatewayConfigInput;`)
 * rather than skipping it.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { extractCodeBlocks, type CodeBlock } from './extract-code-blocks';
import { typeCheckCodeBlocks, type CodeBlockDiagnostic } from './type-check-code-blocks';

const root = join(__dirname, '../..');
const snippetDirectory = join(__dirname, '.snippets');

/** The documents whose blocks are checked, relative to the repository root. */
function documentationFiles(): string[] {
  const inFolder = (folder: string, pick: (name: string) => boolean) =>
    readdirSync(join(root, folder), { withFileTypes: true })
      .filter(entry => pick(entry.name))
      .map(entry => `${folder}/${entry.name}`);
  const readmes = (folder: string) =>
    readdirSync(join(root, folder), { withFileTypes: true })
      .filter(entry => entry.isDirectory() && readdirSync(join(root, folder, entry.name)).includes('README.md'))
      .map(entry => `${folder}/${entry.name}/README.md`);
  return ['README.md', ...inFolder('docs', name => name.endsWith('.md')), ...readmes('packages'), ...readmes('examples')].sort();
}

/** A diagnostic without its line, so that editing the text above a block does not change it. */
function format(diagnostic: CodeBlockDiagnostic): string {
  return `${diagnostic.where}: ${diagnostic.code} ${diagnostic.message}`;
}

afterAll(() => rmSync(snippetDirectory, { recursive: true, force: true }));

describe('extractCodeBlocks', () => {
  it('finds ts and typescript blocks with their index, first code line and code, and leaves other languages out', () => {
    const markdown = [
      '# Title', // 1
      '```sh', // 2
      'echo hi', // 3
      '```', // 4
      '```ts', // 5
      'const a = 1;', // 6
      '```', // 7
      'text', // 8
      '```typescript title="b.ts"', // 9
      'const b = 2;', // 10
      'const c = 3;', // 11
      '```', // 12
    ].join('\n');
    expect(extractCodeBlocks('doc.md', markdown)).toEqual([
      { document: 'doc.md', index: 1, line: 6, info: 'ts', code: 'const a = 1;', skipped: false },
      { document: 'doc.md', index: 2, line: 10, info: 'typescript title="b.ts"', code: 'const b = 2;\nconst c = 3;', skipped: false },
    ]);
  });

  it('marks a block skipped only for skip-compile in the info string or a first line // illustration only', () => {
    const markdown = [
      '```ts skip-compile',
      'not code at all',
      '```',
      '```ts',
      '',
      '// illustration only',
      'app.use(gateway);',
      '```',
      '```ts',
      'const x = 1; // illustration only',
      '```',
    ].join('\n');
    expect(extractCodeBlocks('doc.md', markdown).map(block => [block.index, block.skipped])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
  });

  it('keeps a shorter fence inside a longer one, reads tilde fences and indented fences, and ends an unclosed block at the end', () => {
    const markdown = [
      '````ts',
      'const fence = "```";',
      '```',
      '````',
      '- item',
      '  ~~~ts',
      '  const indented = true;',
      '    const deeper = true;',
      '  ~~~',
      '```ts',
      'const unclosed = 1;',
    ].join('\n');
    expect(extractCodeBlocks('doc.md', markdown).map(({ line, code }) => ({ line, code }))).toEqual([
      { line: 2, code: 'const fence = "```";\n```' },
      { line: 7, code: 'const indented = true;\n  const deeper = true;' },
      { line: 11, code: 'const unclosed = 1;' },
    ]);
  });

  it('does not take inline code with three backticks for a fence', () => {
    expect(extractCodeBlocks('doc.md', 'Use ```ts `x` ``` inline.\n```ts\nconst y = 1;\n```')).toEqual([
      { document: 'doc.md', index: 1, line: 3, info: 'ts', code: 'const y = 1;', skipped: false },
    ]);
  });
});

describe('typeCheckCodeBlocks', () => {
  const fixture = [
    '# Fixture',
    '```ts',
    "import { createGateway, type GatewayConfigInput } from 'signalbox';",
    "import express from 'express';",
    'declare const config: GatewayConfigInput;',
    "express().use('/llm', createGateway({ config }));",
    'const reply = await Promise.resolve(1);',
    'export { reply };',
    '```',
    '```ts',
    "import { createGateway } from 'signalbox';",
    '',
    'createGateway({ config: 42 });',
    'const count: number = "three";',
    '```',
    '```ts skip-compile',
    'this is not TypeScript',
    '```',
  ].join('\n');

  it('compiles a correct block, names the document, block, line and diagnostic of a broken one, and removes what it wrote', () => {
    const blocks = extractCodeBlocks('fixture.md', fixture).filter(block => !block.skipped);
    const directory = join(snippetDirectory, 'fixture');
    const diagnostics = typeCheckCodeBlocks(blocks, { root, directory });
    expect(diagnostics.map(({ where, line, code }) => `${where} (line ${line}): ${code}`)).toEqual([
      'fixture.md block 2 (line 13): TS2322',
      'fixture.md block 2 (line 14): TS2322',
    ]);
    expect(diagnostics[1]!.message).toBe("Type 'string' is not assignable to type 'number'.");
    expect(() => readdirSync(directory)).toThrow(/ENOENT/);
  });
});

describe('the TypeScript blocks of the documentation', () => {
  const documents = documentationFiles();
  const blocks: CodeBlock[] = documents.flatMap(document => extractCodeBlocks(document, readFileSync(join(root, document), 'utf8')));

  it('come from the README, docs/ and every package and example README', () => {
    expect(documents).toContain('README.md');
    expect(documents).toContain('packages/signalbox/README.md');
    expect(documents.filter(document => document.startsWith('docs/')).length).toBeGreaterThan(0);
    expect(blocks.length).toBeGreaterThan(0);
  });

  it('all type-check, except blocks marked skip-compile or // illustration only', () => {
    const checked = blocks.filter(block => !block.skipped);
    const diagnostics = typeCheckCodeBlocks(checked, { root, directory: join(snippetDirectory, 'documentation') });
    expect(diagnostics.map(format)).toEqual([]);
  }, 120_000);
});
