import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import type { PackedPackage } from './pack-workspace-packages';

/** Files that are for the repository's tests, never for a host. */
const TEST_ONLY = /(^|\/)(__fixtures__|__snapshots__)\/|\.test\.[cm]?[jt]s|\.tsbuildinfo$/;
const SOURCE_MAP_COMMENT = /\/\/# sourceMappingURL=(\S+)\s*$/;

/**
 * What is wrong with a packed package's files, one line each (none when it is fit to publish): only
 * `package.json`, README, LICENSE, `dist/` and `src/`; nothing for tests; `testing/` only where the
 * package exports it; every source map comment pointing at a map in the tarball, and every map's
 * sources in the tarball too.
 */
export function describeFileProblems(packed: PackedPackage): string[] {
  const problems: string[] = [];
  const exportsTesting = Object.keys(packed.manifest.exports ?? {}).includes('./testing');
  for (const file of packed.files) {
    if (!/^(package\.json|README\.md|LICENSE|dist\/.+|src\/.+)$/.test(file)) problems.push(`${file}: neither built code, its source, README nor LICENSE`);
    if (TEST_ONLY.test(file)) problems.push(`${file}: for tests only`);
    if (/^(dist|src)\/testing\//.test(file) && !exportsTesting) problems.push(`${file}: testing helpers of a package that does not export ./testing`);
    if (/\.(js|d\.ts)$/.test(file)) problems.push(...describeMapComment(packed.directory, file));
    if (file.endsWith('.map')) problems.push(...describeMapSources(packed.directory, file));
  }
  for (const required of ['package.json', 'README.md', 'LICENSE']) {
    if (!packed.files.includes(required)) problems.push(`${required}: missing`);
  }
  return problems;
}

function describeMapComment(directory: string, file: string): string[] {
  const comment = SOURCE_MAP_COMMENT.exec(readFileSync(join(directory, file), 'utf8'));
  if (!comment) return [];
  const map = normalize(join(dirname(file), comment[1]!));
  return existsSync(join(directory, map)) ? [] : [`${file}: its source map ${map} is not in the tarball`];
}

function describeMapSources(directory: string, file: string): string[] {
  const map = JSON.parse(readFileSync(join(directory, file), 'utf8')) as { sourceRoot?: string; sources: string[] };
  return map.sources
    .map(source => normalize(join(dirname(file), map.sourceRoot ?? '', source)))
    .filter(source => !existsSync(join(directory, source)))
    .map(source => `${file}: maps to ${source}, which is not in the tarball (a stale build? rebuild from a clean dist/)`);
}

/**
 * What is wrong with a packed manifest for publishing, one line each: it must be public, say what it
 * is, under which license, where its repository folder is and which Node it needs; no `workspace:`
 * range may be left; `main`, `types`, `bin` and every export must point at a file of the tarball.
 */
export function describeManifestProblems(packed: PackedPackage): string[] {
  const { manifest } = packed;
  const problems: string[] = [];
  if (manifest.private) problems.push('private: a host installs it, so it must be publishable');
  if (!manifest.description) problems.push('description: missing');
  if (!manifest.keywords?.length) problems.push('keywords: missing');
  if (manifest.license !== 'Apache-2.0') problems.push(`license: ${manifest.license}, not Apache-2.0`);
  if (manifest.repository?.url !== 'git+https://github.com/signalbox-gateway/signalbox.git') problems.push(`repository.url: ${manifest.repository?.url}`);
  if (manifest.repository?.directory !== `packages/${packed.folder}`) problems.push(`repository.directory: ${manifest.repository?.directory}`);
  if (manifest.engines?.node !== '>=22.15.0') problems.push(`engines.node: ${manifest.engines?.node}`);
  for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    if (range.startsWith('workspace:')) problems.push(`${name}: ${range} left in the published manifest`);
  }
  for (const target of entryPoints(packed)) {
    if (!existsSync(join(packed.directory, target))) problems.push(`${target}: an entry point missing from the tarball`);
  }
  return problems;
}

/** Every file the manifest points a host at: `main`, `types`, each `bin` and each export condition. */
function entryPoints(packed: PackedPackage): string[] {
  const { manifest } = packed;
  const conditions = Object.values(manifest.exports ?? {}).flatMap(target => (typeof target === 'string' ? [target] : Object.values(target)));
  return [manifest.main, manifest.types, ...Object.values(manifest.bin ?? {}), ...conditions].filter((target): target is string => target !== undefined);
}
