import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The import rules of eslint.config.mjs, run through ESLint's Node API on probes, so that a rule
 * that silently stops seeing imports (as an import rule does when its resolver is not configured)
 * fails here instead of passing lint with nothing to report. Import cycles have their own check,
 * import-cycles.test.ts.
 *
 * ESLint loads its flat config with `import()`, which jest's module sandbox cannot run, so the API
 * runs in a child Node process; one process lints every probe. The rules under test read no types,
 * so the probes are parsed without type information and the rules that need it are off: building
 * the typed programs of every tsconfig was nearly all of the run's time.
 */
const root = join(__dirname, '../..');

type LintMessage = { ruleId: string | null; message: string; line: number };
type LintJob = { texts: { filePath: string; code: string }[] };
type LintReport = { texts: LintMessage[][] };

const lintScript = `
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
const job = JSON.parse(process.argv[1]);
const typedRules = Object.entries(tseslint.plugin.rules).filter(([, rule]) => rule.meta.docs?.requiresTypeChecking);
const eslint = new ESLint({
  cwd: process.cwd(),
  ignore: false,
  overrideConfigFile: 'eslint.config.mjs',
  overrideConfig: {
    languageOptions: { parserOptions: { project: null, projectService: false } },
    rules: Object.fromEntries(typedRules.map(([name]) => ['@typescript-eslint/' + name, 'off'])),
  },
});
const messagesOf = result => result.messages.map(({ ruleId, message, line }) => ({ ruleId, message, line }));
const texts = [];
for (const { filePath, code } of job.texts) texts.push(messagesOf((await eslint.lintText(code, { filePath }))[0]));
process.stdout.write(JSON.stringify({ texts }));
`;

async function lint(job: LintJob): Promise<LintReport> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', lintScript, JSON.stringify(job)], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
    timeout: 180_000,
  });
  return JSON.parse(stdout) as LintReport;
}

/** Lint-clean module text that imports one name and uses it. */
const importing = (specifier: string, name: string) => `import { ${name} } from '${specifier}';\n\nexport const probe = [${name}];\n`;

/** Texts linted as if they were the given package file (the file on disk is not changed). */
const texts = {
  // Resolved by name to the engine's sources (no `dist/` needed).
  workspaceImport: { filePath: 'packages/engine/src/create-engine.ts', code: importing('@signalbox/engine', 'parseGatewayConfig') },
  unknownPackage: { filePath: 'packages/engine/src/create-engine.ts', code: importing('@signalbox/no-such-package', 'anything') },
  coreImportsZod: { filePath: 'packages/core/src/index.ts', code: importing('zod', 'z') },
  codecImportsCodec: { filePath: 'packages/codec-openai-chat/src/index.ts', code: importing('@signalbox/codec-anthropic-messages', 'anthropicMessagesCodec') },
  codecImportsShared: { filePath: 'packages/codec-openai-chat/src/index.ts', code: importing('@signalbox/codec-openai-shared', 'encodeOpenAIError') },
  engineImportsExpress: { filePath: 'packages/engine/src/index.ts', code: importing('express', 'Router') },
  accountsImportUndici: { filePath: 'packages/accounts/src/index.ts', code: importing('undici', 'request') },
  testImportsWorkspace: { filePath: 'test/architecture/package-boundaries.test.ts', code: importing('signalbox', 'createGateway') },
};
type TextName = keyof typeof texts;
const textNames = Object.keys(texts) as TextName[];

let report: LintReport;
const messagesOf = (name: TextName) => report.texts[textNames.indexOf(name)];

beforeAll(async () => {
  report = await lint({ texts: textNames.map(name => ({ filePath: join(root, texts[name].filePath), code: texts[name].code })) });
}, 180_000);

describe('import-x/no-unresolved', () => {
  it('reports an import that resolves nowhere, so a broken resolver cannot pass lint unnoticed', () => {
    expect(messagesOf('unknownPackage')).toEqual([
      { ruleId: 'import-x/no-unresolved', message: "Unable to resolve path to module '@signalbox/no-such-package'.", line: 1 },
    ]);
  });

  it('resolves the entry package by name from the tests', () => {
    expect(messagesOf('testImportsWorkspace')).toEqual([]);
  });

  it("resolves a workspace package by name to its sources from a package's own file", () => {
    expect(messagesOf('workspaceImport')).toEqual([]);
  });
});

describe('package boundaries (no-restricted-imports)', () => {
  it.each([
    ['coreImportsZod', 'zod', 'core imports nothing.'],
    ['codecImportsCodec', '@signalbox/codec-anthropic-messages', 'Codecs never import each other.'],
    ['engineImportsExpress', 'express', 'Only @signalbox/express (and the examples) may import express.'],
    ['accountsImportUndici', 'undici', 'Accounts know nothing of upstream calls or rate windows.'],
  ] as const)('%s: refuses the import of %s', (name, specifier, why) => {
    expect(messagesOf(name)).toEqual([
      { ruleId: 'no-restricted-imports', message: `'${specifier}' import is restricted from being used by a pattern. ${why}`, line: 1 },
    ]);
  });

  it('lets a codec import the shared OpenAI codec package', () => {
    expect(messagesOf('codecImportsShared')).toEqual([]);
  });
});
