import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import type { CodeBlock } from './extract-code-blocks';

/** One compiler error, located in the markdown document the block came from. */
export type CodeBlockDiagnostic = {
  /** `README.md block 2`; `compiler options` or a file's path for a problem outside any block. */
  where: string;
  /** The line of the document the diagnostic points at, when it points into a block. */
  line?: number;
  /** `TS2304`. */
  code: string;
  message: string;
};

export type TypeCheckOptions = {
  /** The repository root: where `tsconfig.test.json` is and what the packages' paths are relative to. */
  root: string;
  /** A directory inside the repository to write the blocks to; created, and removed afterwards. */
  directory: string;
};

/**
 * Type-checks every block in one TypeScript program with the options the tests compile with
 * (`tsconfig.test.json`, whose paths resolve `signalbox` and `@signalbox/*` to the packages'
 * sources as jest's moduleNameMapper does, and whose project references stand their built
 * declarations in for them). Each block is written as its own `.mts` file: an ES module, so its
 * names never clash with another block's and top-level `await` works as it does in a host's ESM
 * code. The files live inside the repository so that its `node_modules` (the SDKs, express)
 * resolve; the directory is removed when the check is done, whatever its outcome.
 */
export function typeCheckCodeBlocks(blocks: readonly CodeBlock[], options: TypeCheckOptions): CodeBlockDiagnostic[] {
  const files = new Map<string, CodeBlock>();
  rmSync(options.directory, { recursive: true, force: true });
  mkdirSync(options.directory, { recursive: true });
  try {
    for (const block of blocks) {
      const file = join(options.directory, `${block.document.replace(/[^A-Za-z0-9]+/g, '-')}-block-${block.index}.mts`);
      writeFileSync(file, `${block.code}\n`);
      files.set(ts.sys.resolvePath(file), block);
    }
    const program = ts.createProgram({ rootNames: [...files.keys()], ...compilerSettings(options.root) });
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program.getSourceFiles().flatMap(source => {
        const block = files.get(ts.sys.resolvePath(source.fileName));
        return block ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)] : [];
      }),
    ];
    return diagnostics.map(diagnostic => locate(diagnostic, files, options.root));
  } finally {
    rmSync(options.directory, { recursive: true, force: true });
  }
}

/**
 * The tests' compiler options and project references: a package's sources come from its built
 * declarations (`dist/*.d.ts`), as they do for the tests' type-check.
 */
function compilerSettings(root: string): { options: ts.CompilerOptions; projectReferences: readonly ts.ProjectReference[] | undefined } {
  const configPath = join(root, 'tsconfig.test.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath);
  return { options: { ...parsed.options, noEmit: true }, projectReferences: parsed.projectReferences };
}

function locate(diagnostic: ts.Diagnostic, files: ReadonlyMap<string, CodeBlock>, root: string): CodeBlockDiagnostic {
  const code = `TS${diagnostic.code}`;
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  const { file, start } = diagnostic;
  if (!file) return { where: 'compiler options', code, message };
  const block = files.get(ts.sys.resolvePath(file.fileName));
  if (!block) return { where: relative(root, file.fileName), code, message };
  const line = start === undefined ? 0 : file.getLineAndCharacterOfPosition(start).line;
  return { where: `${block.document} block ${block.index}`, line: block.line + line, code, message };
}
