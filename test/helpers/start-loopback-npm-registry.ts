import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { listenOnLoopback } from './listen-on-loopback';

const run = promisify(execFile);

/** An npm registry on 127.0.0.1 that serves only packages already installed in a pnpm store. */
export type LoopbackNpmRegistry = {
  /** The registry's base URL, for `npm install --registry`. */
  url: string;
  /** The `name@version` of every tarball downloaded so far. */
  downloaded(): string[];
  close(): Promise<void>;
};

/** One installed version: its folder in the store and its manifest. */
type InstalledVersion = { directory: string; manifest: Record<string, unknown> & { name: string; version: string } };

/** A version's tarball, made on first use. */
type Tarball = { path: string; integrity: string; shasum: string };

/**
 * Serves the packuments and tarballs of every package in a pnpm virtual store (the workspace's
 * `node_modules/.pnpm`), so that `npm install` of third-party dependencies never leaves the machine.
 * A packument lists every version the store holds; a tarball is the installed folder packed under
 * `package/` (GNU tar, links stored as plain files), made on first request into `tarballDirectory`.
 * Unknown names answer 404, as the public registry does.
 */
export async function startLoopbackNpmRegistry(options: { store: string; tarballDirectory: string }): Promise<LoopbackNpmRegistry> {
  const installed = indexStore(options.store);
  const tarballs = new Map<string, Promise<Tarball>>();
  const downloaded: string[] = [];
  mkdirSync(options.tarballDirectory, { recursive: true });

  const tarballOf = (version: InstalledVersion): Promise<Tarball> => {
    const id = `${version.manifest.name}@${version.manifest.version}`;
    let made = tarballs.get(id);
    if (!made) {
      made = packFolder(version.directory, join(options.tarballDirectory, `${id.replace(/[/@]/g, '_')}.tgz`));
      tarballs.set(id, made);
    }
    return made;
  };

  const server = await listenOnLoopback((request, response) => {
    answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = decodeURIComponent(new URL(request.url ?? '/', server.url).pathname).slice(1);
    const separator = path.indexOf('/-/');
    if (separator > 0) {
      const name = path.slice(0, separator);
      const file = path.slice(separator + 3);
      const prefix = `${baseNameOf(name)}-`;
      const version = file.startsWith(prefix) && file.endsWith('.tgz') ? installed.get(name)?.get(file.slice(prefix.length, -4)) : undefined;
      if (!version) return notFound(response);
      const tarball = await tarballOf(version);
      downloaded.push(`${version.manifest.name}@${version.manifest.version}`);
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(tarball.path));
      return;
    }
    const versions = installed.get(path);
    if (!versions) return notFound(response);
    const packument = buildPackument(path, versions, server.url);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
  }

  return { url: server.url, downloaded: () => [...downloaded], close: () => server.close() };
}

function notFound(response: ServerResponse): void {
  response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
}

/**
 * Every package folder of a pnpm virtual store, by name and version. A store entry is
 * `<name>@<version>[_peers or (peers)]` with `/` of a scope written `+`; the package is in
 * `<entry>/node_modules/<name>`, and its own manifest gives the exact name and version.
 */
function indexStore(store: string): Map<string, Map<string, InstalledVersion>> {
  const index = new Map<string, Map<string, InstalledVersion>>();
  for (const entry of readdirSync(store)) {
    const at = entry.indexOf('@', 1);
    if (at < 0) continue;
    const name = entry.slice(0, at).replace('+', '/');
    const directory = join(store, entry, 'node_modules', name);
    if (!existsSync(join(directory, 'package.json'))) continue;
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as InstalledVersion['manifest'];
    if (manifest.name !== name || typeof manifest.version !== 'string') continue;
    const versions = index.get(name) ?? new Map<string, InstalledVersion>();
    versions.set(manifest.version, { directory, manifest });
    index.set(name, versions);
  }
  return index;
}

/**
 * The registry document of one package: every version's manifest with its tarball's address. No
 * digests: they would mean packing every version the store holds, when npm downloads one or two; npm
 * computes the digest of what it downloads.
 */
function buildPackument(name: string, versions: Map<string, InstalledVersion>, registryURL: string): Record<string, unknown> {
  const documents: Record<string, unknown> = {};
  const baseName = baseNameOf(name);
  for (const [version, installed] of versions) {
    documents[version] = { ...installed.manifest, _id: `${name}@${version}`, dist: { tarball: `${registryURL}/${name}/-/${baseName}-${version}.tgz` } };
  }
  return { _id: name, name, 'dist-tags': { latest: latestVersion([...versions.keys()]) }, versions: documents };
}

/** `lodash` of `lodash`, `node` of `@types/node`: the start of a tarball's file name. */
function baseNameOf(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** The highest release (a prerelease only when there is nothing else), as the `latest` tag. */
function latestVersion(versions: string[]): string {
  const releases = versions.filter(version => !version.includes('-'));
  const numbers = (version: string) => version.split(/[.-]/).slice(0, 3).map(Number);
  const compare = (left: string, right: string) => {
    const [a, b] = [numbers(left), numbers(right)];
    return a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
  };
  return (releases.length > 0 ? releases : versions).sort(compare).at(-1)!;
}

/**
 * Packs an installed package folder as the public registry would serve it: every file under
 * `package/`, symbolic and hard links stored as the files they point to (npm extracts no links).
 */
async function packFolder(directory: string, output: string): Promise<Tarball> {
  await run('tar', [
    '--create',
    '--gzip',
    `--file=${output}`,
    '--dereference',
    '--hard-dereference',
    '--exclude=./node_modules',
    '--transform=s,^\\.,package,',
    `--directory=${directory}`,
    '.',
  ]);
  const bytes = readFileSync(output);
  return {
    path: output,
    integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
    shasum: createHash('sha1').update(bytes).digest('hex'),
  };
}
