import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Folders never walked for the project's TypeScript files: what lint ignores. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', '__fixtures__', '.git', '.tools', '.test-results', '.snippets']);

/** What a relative specifier may lack to name a module outside the graph: a JavaScript file, JSON, declarations. */
const OTHER_MODULE_ENDINGS = ['', '.js', '.mjs', '.cjs', '.json', '.d.ts', '/index.js'];

/** One module specifier of a file that is not only types, and the file it resolves to (`undefined` outside the project). */
export type ImportEdge = { specifier: string; target: string | undefined };

export type ImportGraphOptions = {
  /** The repository root: where tsconfig.test.json (whose `paths` name the workspace packages) is. */
  root: string;
  /** Texts that stand in for files on disk (or add files), by path from the root. */
  overrides?: Readonly<Record<string, string>>;
};

/**
 * Every TypeScript file of the project (outside dependencies, builds and fixtures) with the value
 * imports it makes: `import`, `export … from`, `import x = require()` and `import()`, leaving out
 * those that bring in only types (erased, so they cannot make modules wait on each other).
 * Relative specifiers resolve as TypeScript does; `signalbox` and `@signalbox/*` through the
 * `paths` of tsconfig.test.json, to the packages' sources; a relative import of another kind of
 * file (JSON, a script's `.mjs`) is an edge out of the graph. A relative import that resolves
 * nowhere throws, so a broken resolution cannot hide a cycle.
 */
export function readImportGraph(options: ImportGraphOptions): Map<string, ImportEdge[]> {
  const { root } = options;
  const overrides = new Map(Object.entries(options.overrides ?? {}).map(([path, text]) => [resolve(root, path), text]));
  const files = new Set([...listTypeScriptFiles(root), ...overrides.keys()]);
  const resolveWorkspace = workspaceResolver(root);
  const graph = new Map<string, ImportEdge[]>();
  for (const file of files) {
    const text = overrides.get(file) ?? readFileSync(file, 'utf8');
    graph.set(
      file,
      valueImports(file, text).map(specifier => {
        if (!specifier.startsWith('.')) return { specifier, target: resolveWorkspace(specifier) };
        const base = resolve(dirname(file), specifier);
        const target = resolveRelative(base, files);
        if (target === undefined && !OTHER_MODULE_ENDINGS.some(ending => existsSync(base + ending))) throw new Error(`${relative(root, file)}: '${specifier}' resolves to no file`);
        return { specifier, target };
      }),
    );
  }
  return graph;
}

/**
 * The import cycles of a graph: each strongly connected group of files (two or more, or one that
 * imports itself), its files from the root, sorted; groups sorted by their first file.
 */
export function findImportCycles(graph: ReadonlyMap<string, readonly ImportEdge[]>, root: string): string[][] {
  const successors = (file: string) => (graph.get(file) ?? []).flatMap(edge => (edge.target !== undefined && graph.has(edge.target) ? [edge.target] : []));
  return stronglyConnectedGroups([...graph.keys()], successors)
    .filter(group => group.length > 1 || successors(group[0]!).includes(group[0]!))
    .map(group => group.map(file => relative(root, file)).sort())
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function listTypeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap(entry => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : listTypeScriptFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each file's value imports as last parsed, with the text they were parsed from: a probe re-parses only the files it changes. */
const parsed = new Map<string, { text: string; specifiers: string[] }>();

/** The specifiers of a module's value imports (see readImportGraph), in source order. */
function valueImports(file: string, text: string): string[] {
  const known = parsed.get(file);
  if (known?.text === text) return known.specifiers;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specifiers: string[] = [];
  // Only `import()` hides below the top level; a file without one is read statement by statement.
  const deep = text.includes('import(');
  const visit = (node: ts.Node): void => {
    const specifier = valueSpecifier(node);
    if (specifier !== undefined) specifiers.push(specifier);
    if (deep) ts.forEachChild(node, visit);
  };
  source.statements.forEach(visit);
  parsed.set(file, { text, specifiers });
  return specifiers;
}

function valueSpecifier(node: ts.Node): string | undefined {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    const onlyTypes = clause !== undefined && (clause.isTypeOnly || (!clause.name && namedBindingsAreTypes(clause.namedBindings)));
    return onlyTypes ? undefined : literalText(node.moduleSpecifier);
  }
  if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
    const onlyTypes = node.isTypeOnly || (node.exportClause !== undefined && ts.isNamedExports(node.exportClause) && node.exportClause.elements.length > 0 && node.exportClause.elements.every(element => element.isTypeOnly));
    return onlyTypes ? undefined : literalText(node.moduleSpecifier);
  }
  if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
    return node.isTypeOnly ? undefined : literalText(node.moduleReference.expression);
  }
  if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) return literalText(node.arguments[0]);
  return undefined;
}

function namedBindingsAreTypes(bindings: ts.NamedImportBindings | undefined): boolean {
  return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every(element => element.isTypeOnly);
}

function literalText(node: ts.Node | undefined): string | undefined {
  return node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined;
}

/** A relative import's file: the path as written, with `.js` read as `.ts`, or with a TypeScript extension or `/index` added. */
function resolveRelative(base: string, files: ReadonlySet<string>): string | undefined {
  const stem = base.replace(/\.(m|c)?js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find(candidate => files.has(candidate));
}

/** Resolves a bare specifier through tsconfig.test.json's `paths` (the longest matching prefix wins, as in TypeScript); `undefined` for a dependency. */
function workspaceResolver(root: string): (specifier: string) => string | undefined {
  const configPath = join(root, 'tsconfig.test.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const paths = Object.entries((config.config as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths);
  return specifier => {
    let best: { prefix: string; target: string } | undefined;
    for (const [pattern, [target]] of paths) {
      const [prefix, suffix = ''] = pattern.split('*') as [string, string?];
      const matches = pattern.includes('*') ? specifier.startsWith(prefix) && specifier.endsWith(suffix) && specifier.length >= prefix.length + suffix.length : specifier === pattern;
      if (!matches || target === undefined || (best && best.prefix.length >= prefix.length)) continue;
      best = { prefix, target: target.replace('*', specifier.slice(prefix.length, specifier.length - suffix.length)) };
    }
    return best && resolve(root, best.target);
  };
}

/** Tarjan's strongly connected components, iteratively (no recursion limit on deep import chains). */
function stronglyConnectedGroups(nodes: readonly string[], successors: (node: string) => string[]): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: { node: string; next: string[] }[] = [];
    const open = (node: string) => {
      index.set(node, index.size);
      lowLink.set(node, index.get(node)!);
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: successors(node) });
    };
    open(start);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const successor = frame.next.shift();
      if (successor !== undefined) {
        if (!index.has(successor)) open(successor);
        else if (onStack.has(successor)) lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(successor)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node)!, lowLink.get(frame.node)!));
      if (lowLink.get(frame.node) !== index.get(frame.node)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.node);
      groups.push(group);
    }
  }
  return groups;
}
