import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '../..');
const packagesDirectory = join(root, 'packages');
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.test-results', '.tools', '.git']);

/** Every source and documentation file of the repository, by path from its root. */
function repositoryFiles(directory = root, found: string[] = []): string[] {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) repositoryFiles(path, found);
    else if (/\.(ts|tsx|mjs|js|md)$/.test(entry.name)) found.push(relative(root, path));
  }
  return found;
}

type Entry = { packageDirectory: string; specifier: string; source: string };

/** Each entry point a package's `exports` map declares (`.`, `./sql`…), with the source file it is built from. */
function entryPoints(): Entry[] {
  return readdirSync(packagesDirectory).flatMap(name => {
    const manifestPath = join(packagesDirectory, name, 'package.json');
    if (!statSync(join(packagesDirectory, name)).isDirectory()) return [];
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name: string; exports?: Record<string, { default?: string } | string> };
    return Object.entries(manifest.exports ?? {}).map(([subpath, target]) => {
      const built = typeof target === 'string' ? target : target.default!;
      const source = built.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
      return { packageDirectory: `packages/${name}/`, specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`, source: `packages/${name}/${source}` };
    });
  });
}

/** The names an entry file exports as values (type-only exports left out). */
function runtimeExports(source: string): string[] {
  const text = readFileSync(join(root, source), 'utf8');
  const names: string[] = [];
  for (const [, typeOnly, list] of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    if (typeOnly) continue;
    for (const part of list!.split(',').map(item => item.trim())) {
      if (part && !part.startsWith('type ')) names.push(part.split(/\s+as\s+/).pop()!);
    }
  }
  for (const [, name] of text.matchAll(/export\s+(?:async\s+)?(?:const|function|class|let)\s+(\w+)/g)) names.push(name!);
  return names;
}

/** The names each specifier is imported (or re-exported) by in one file, namespace imports' `X.name` included. */
function importedNames(text: string, into: Map<string, Set<string>>): void {
  const add = (specifier: string, name: string) => into.set(specifier, (into.get(specifier) ?? new Set()).add(name));
  for (const [, list, specifier] of text.matchAll(/(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    for (const part of list!.split(',').map(item => item.trim().replace(/^type\s+/, ''))) if (part) add(specifier!, part.split(/\s+as\s+/)[0]!);
  }
  for (const [, alias, specifier] of text.matchAll(/import\s+(?:type\s+)?\*\s+as\s+(\w+)\s+from\s*'([^']+)'/g)) {
    for (const [, name] of text.matchAll(new RegExp(`\\b${alias}\\.(\\w+)`, 'g'))) add(specifier!, name!);
  }
}

describe('package exports', () => {
  const files = repositoryFiles();
  const texts = new Map(files.map(file => [file, readFileSync(join(root, file), 'utf8')]));
  const documentation = files.filter(file => file.endsWith('.md')).map(file => texts.get(file)!);

  it.each(entryPoints().map(entry => [entry.specifier, entry] as const))(
    '%s exports only what is imported outside its package, or documented',
    (_specifier, entry) => {
      const imported = new Map<string, Set<string>>();
      for (const [file, text] of texts) if (!file.startsWith(entry.packageDirectory)) importedNames(text, imported);
      const used = imported.get(entry.specifier) ?? new Set();
      const unused = runtimeExports(entry.source).filter(name => !used.has(name) && !documentation.some(text => text.includes(`\`${name}`)));
      expect(unused).toEqual([]);
    },
  );

  it('keeps the SQL row helpers of @signalbox/accounts/sql to the two SQL stores', () => {
    const importers = files.filter(file => /from '@signalbox\/accounts\/sql'/.test(texts.get(file)!));
    expect(importers.filter(file => !/^packages\/store-(sqlite|postgres)\/src\//.test(file))).toEqual([]);
    expect(importers.length).toBeGreaterThan(0);
  });
});
