import { join } from 'node:path';
import { findImportCycles, readImportGraph } from './find-import-cycles';

/**
 * No import cycle among the project's modules: two modules that import each other's values load
 * in an order where one sees the other half-initialised. The check reads every TypeScript file
 * once and looks for strongly connected groups in the graph of value imports, relative ones and
 * those of `signalbox` and `@signalbox/*` (followed to the packages' sources), where lint's
 * `import-x/no-cycle` walked the graph again from every import. The probes below are texts
 * standing in for files, so a check that stops seeing imports fails here.
 */
const root = join(__dirname, '../..');

/** Lint-clean module text that imports one name and uses it. */
const importing = (specifier: string, name: string) => `import { ${name} } from '${specifier}';\n\nexport const probe = [${name}];\n`;

const cyclesWith = (overrides: Record<string, string>) => findImportCycles(readImportGraph({ root, overrides }), root);

describe('import cycles', () => {
  const graph = readImportGraph({ root });

  it('there are none among the packages, the examples, the tests and the scripts', () => {
    expect(findImportCycles(graph, root)).toEqual([]);
  });

  it("sees the project's imports: every package index, and the entry package's imports of the packages by name", () => {
    const targetsOf = (file: string) => (graph.get(join(root, file)) ?? []).map(edge => edge.target);
    expect(targetsOf('packages/engine/src/index.ts')).toContain(join(root, 'packages/engine/src/create-engine.ts'));
    expect(targetsOf('packages/signalbox/src/index.ts')).toEqual(expect.arrayContaining([join(root, 'packages/engine/src/index.ts'), join(root, 'packages/express/src/index.ts')]));
    expect(graph.size).toBeGreaterThan(500);
  });

  it('reports both files of a two-file cycle of relative imports, and not a file that imports the cycle', () => {
    const first = 'test/architecture/cycle-probe/first.ts';
    const second = 'test/architecture/cycle-probe/second.ts';
    expect(
      cyclesWith({
        [first]: "import { second } from './second';\n\nexport const first = (): number => second() + 1;\n",
        [second]: "import { first } from './first';\n\nexport const second = (): number => (typeof first === 'function' ? 1 : 0);\n",
        'test/architecture/cycle-probe/outside.ts': "import { first } from './first';\n\nexport const outside = (): number => first();\n",
      }),
    ).toEqual([[first, second]]);
  });

  it('follows a workspace package name to its sources and reports the cycle through it', () => {
    // The engine's index re-exports createEngine, so importing the package by name from that file closes a cycle.
    const cycles = cyclesWith({ 'packages/engine/src/create-engine.ts': importing('@signalbox/engine', 'parseGatewayConfig') });
    expect(cycles).toEqual([expect.arrayContaining(['packages/engine/src/create-engine.ts', 'packages/engine/src/index.ts'])]);
  });

  it('counts imports of values in every form: export from, import(), import = require()', () => {
    const a = 'test/architecture/cycle-probe/a.ts';
    const b = 'test/architecture/cycle-probe/b.ts';
    const c = 'test/architecture/cycle-probe/c.ts';
    expect(
      cyclesWith({
        [a]: "export { b } from './b';\nexport const a = 1;\n",
        [b]: "export const b = async () => (await import('./c.js')).c;\n",
        [c]: "import a = require('./a');\nexport const c = a;\n",
      }),
    ).toEqual([[a, b, c]]);
  });

  it('leaves out imports of types only, which the compiled code does not have', () => {
    expect(
      cyclesWith({
        'test/architecture/cycle-probe/first.ts': "import type { Second } from './second';\nexport type First = { second?: Second };\nexport const first = 1;\n",
        'test/architecture/cycle-probe/second.ts': "import { type First } from './first';\nexport { type First as Alias } from './first';\nexport type Second = First;\n",
      }),
    ).toEqual([]);
  });

  it('refuses a relative import that resolves to no file, so a resolution gone wrong cannot hide a cycle', () => {
    expect(() => readImportGraph({ root, overrides: { 'test/architecture/cycle-probe/lost.ts': importing('./no-such-module', 'anything') } })).toThrow(
      "test/architecture/cycle-probe/lost.ts: './no-such-module' resolves to no file",
    );
  });
});
