import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A package's manifest as published (after `pnpm pack` rewrote its `workspace:` ranges). */
export type PackedManifest = {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  keywords?: string[];
  license?: string;
  repository?: { type?: string; url?: string; directory?: string };
  engines?: { node?: string };
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  files?: string[];
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** One workspace package packed and unpacked: its tarball and what a host's `node_modules` would hold. */
export type PackedPackage = {
  /** The folder under `packages/` it was packed from. */
  folder: string;
  tarball: string;
  /** The unpacked `package/` folder. */
  directory: string;
  manifest: PackedManifest;
  /** Every file of the tarball, relative to `package/`, sorted. */
  files: string[];
};

/**
 * Packs every package under `packages/` with `pnpm pack` (as publishing would: `files`, the root
 * LICENSE, `workspace:` ranges turned into versions) into `destination`, and unpacks each beside
 * its tarball. Needs the packages built (`pnpm run build`).
 */
export async function packWorkspacePackages(root: string, destination: string): Promise<Map<string, PackedPackage>> {
  const tarballs = join(destination, 'tarballs');
  mkdirSync(tarballs, { recursive: true });
  await run('pnpm', ['--recursive', '--filter', './packages/*', 'pack', '--pack-destination', tarballs], { cwd: root });
  const folders = new Map(
    readdirSync(join(root, 'packages')).map(folder => {
      const manifest = JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8')) as PackedManifest;
      return [manifest.name, folder] as const;
    }),
  );
  const files = readdirSync(tarballs).filter(name => name.endsWith('.tgz'));
  const unpacked = await Promise.all(files.map(file => unpack(join(tarballs, file), join(destination, 'unpacked', file.replace(/\.tgz$/, '')))));
  const packed = new Map<string, PackedPackage>();
  for (const [index, directory] of unpacked.entries()) {
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as PackedManifest;
    const folder = folders.get(manifest.name);
    if (folder === undefined) throw new Error(`${files[index]}: ${manifest.name} is no package of packages/`);
    packed.set(manifest.name, { folder, tarball: join(tarballs, files[index]!), directory, manifest, files: listFiles(directory) });
  }
  return packed;
}

/** Extracts a tarball into `destination` (the callers run one per tarball at once); answers its `package/` folder. */
async function unpack(tarball: string, destination: string): Promise<string> {
  mkdirSync(destination, { recursive: true });
  await run('tar', ['--extract', '--gzip', `--file=${tarball}`, `--directory=${destination}`]);
  return join(destination, 'package');
}

/** The packed packages a host needs for `names`: those and their dependencies among the packed ones, transitively. */
export function packedClosure(packed: Map<string, PackedPackage>, names: string[]): PackedPackage[] {
  const needed = new Map<string, PackedPackage>();
  const visit = (name: string) => {
    const found = packed.get(name);
    if (!found || needed.has(name)) return;
    needed.set(name, found);
    Object.keys(found.manifest.dependencies ?? {}).forEach(visit);
  };
  names.forEach(visit);
  return [...needed.values()];
}

function listFiles(directory: string): string[] {
  return (readdirSync(directory, { recursive: true }) as string[]).filter(path => statSync(join(directory, path)).isFile()).sort();
}
