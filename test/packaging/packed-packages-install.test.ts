/**
 * The packages as a host gets them: every package under `packages/` is packed with `pnpm pack`
 * (from the built `dist/`), its tarball's files and manifest are checked for publishing, and the
 * entry package with the `@signalbox/*` packages it needs is installed with
 * `npm install <tarballs> express` into an empty folder. There the README's mounting snippet, read
 * from the README itself, runs with plain `node` and answers real requests. npm reaches only a
 * loopback registry serving the workspace's installed third-party packages; the upstream is the
 * simulator.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAdminToken } from '@signalbox/accounts';
import { createSimulator } from '@signalbox/simulator';
import OpenAI from 'openai';
import { startLoopbackNpmRegistry, type LoopbackNpmRegistry } from '../helpers/start-loopback-npm-registry';
import { findFreePort, stopProcess, waitUntil } from '../helpers/throwaway-process';
import { describeFileProblems, describeManifestProblems } from './check-packed-package';
import { installFromTarballs } from './install-from-tarballs';
import { packedClosure, packWorkspacePackages, type PackedPackage } from './pack-workspace-packages';
import { importedPackages, onLoopback, readMountingSnippet } from './readme-mounting-snippet';

const root = join(__dirname, '../..');
const snippet = readMountingSnippet(readFileSync(join(root, 'README.md'), 'utf8'));
const workspacePackageNames = readdirSync(join(root, 'packages')).map(
  folder => (JSON.parse(readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8')) as { name: string }).name,
);

describe('the packed packages', () => {
  const folder = mkdtempSync(join(tmpdir(), 'signalbox-packed-'));
  const simulator = createSimulator();
  const adminToken = generateAdminToken();
  let packed: Map<string, PackedPackage>;
  let installed: PackedPackage[];
  let registry: LoopbackNpmRegistry;
  let host: ChildProcess | undefined;
  let hostOutput = '';
  let hostURL: string;

  beforeAll(async () => {
    packed = await packWorkspacePackages(root, folder);
    const imports = importedPackages(snippet);
    installed = packedClosure(packed, imports.filter(name => packed.has(name)));
    registry = await startLoopbackNpmRegistry({ store: join(root, 'node_modules/.pnpm'), tarballDirectory: join(folder, 'registry') });
    const app = join(folder, 'host-app');
    await installFromTarballs({
      folder: app,
      registryURL: registry.url,
      tarballs: installed.map(found => found.tarball),
      names: imports.filter(name => !packed.has(name)),
    });
    const { url: upstreamURL } = await simulator.listen();
    const port = await findFreePort();
    hostURL = `http://127.0.0.1:${port}`;
    writeFileSync(
      join(app, 'server.mts'),
      onLoopback(snippet, { "'https://api.openai.com/v1'": `'${upstreamURL}/v1'`, 'app.listen(3000)': `app.listen(${port}, '127.0.0.1')` }),
    );
    // Node strips the types of a .mts file by default since 22.18; 22.15 to 22.17 need the flag.
    const typeStripping = process.features.typescript ? [] : ['--experimental-strip-types'];
    const started = spawn(process.execPath, [...typeStripping, 'server.mts'], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '', OPENAI_API_KEY: 'upstream-secret', CONSOLE_TOKEN: adminToken },
    });
    host = started;
    started.stdout.on('data', chunk => (hostOutput += chunk));
    started.stderr.on('data', chunk => (hostOutput += chunk));
    await waitUntil(() => fetch(`${hostURL}/`).then(answer => answer.ok, () => false), {
      what: () => hostOutput,
      exited: () => started.exitCode !== null,
    });
  }, 120_000);

  afterAll(async () => {
    if (host) await stopProcess(host, 'SIGTERM');
    await registry?.close();
    await simulator.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('are every package under packages/, and the workspace root and examples stay private', () => {
    expect([...packed.keys()].sort()).toEqual([...workspacePackageNames].sort());
    for (const manifest of ['package.json', 'examples/server/package.json', 'examples/mount-existing-app/package.json', 'test/package.json']) {
      expect({ manifest, private: (JSON.parse(readFileSync(join(root, manifest), 'utf8')) as { private?: boolean }).private }).toEqual({ manifest, private: true });
    }
  });

  it('hold built code, its sources, README and LICENSE, and nothing for tests', () => {
    const problems = [...packed.values()].flatMap(found => describeFileProblems(found).map(problem => `${found.manifest.name}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it('have manifests fit for publishing', () => {
    const problems = [...packed.values()].flatMap(found => describeManifestProblems(found).map(problem => `${found.manifest.name}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it('ship the files their code reads at run time: the panel its page', () => {
    expect(packed.get('@signalbox/panel')!.files).toEqual(expect.arrayContaining(['dist/ui/index.html', 'dist/ui/panel.js', 'dist/ui/panel.css']));
  });

  it('install from their tarballs with npm, third-party dependencies from the registry', () => {
    expect(installed.map(found => found.manifest.name)).toEqual(expect.arrayContaining(['signalbox', '@signalbox/core', '@signalbox/engine', '@signalbox/express']));
    expect(registry.downloaded()).toEqual(expect.arrayContaining([expect.stringMatching(/^express@5\./), expect.stringMatching(/^zod@4\./)]));
    expect(registry.downloaded().filter(id => id.startsWith('signalbox@') || id.startsWith('@signalbox/'))).toEqual([]);
  });

  it("run the README's mounting snippet: host route, admin API, and generations through the upstream", async () => {
    expect(await (await fetch(`${hostURL}/`)).text()).toBe('my app');
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    const account = (await (await fetch(`${hostURL}/admin/accounts`, { method: 'POST', headers: admin, body: '{"name":"packed","balance":5}' })).json()) as { id: string };
    const created = await fetch(`${hostURL}/admin/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ accountId: account.id, name: 'packed' }) });
    expect(created.status).toBe(201);
    const { secret } = (await created.json()) as { secret: string };

    const openai = new OpenAI({ baseURL: `${hostURL}/v1`, apiKey: secret, maxRetries: 0 });
    const response = await openai.responses.create({ model: 'team-default', input: 'Say hello' });
    expect(response.status).toBe('completed');
    expect(response.output_text.length).toBeGreaterThan(0);
    const streamed = await openai.responses.stream({ model: 'team-default', input: 'Say hello' }).finalResponse();
    expect(streamed.output_text).toBe(response.output_text);
    const upstreamCalls = simulator.requests().filter(request => request.url === '/v1/responses');
    expect(upstreamCalls).toHaveLength(2);
    expect(upstreamCalls[0]!.headers.authorization).toBe('Bearer upstream-secret');
    // The snippet's recordUsage logs each request's id and outcome.
    const usageLine = `${response._request_id} completed`;
    await waitUntil(() => hostOutput.includes(usageLine), { what: () => `"${usageLine}" in:\n${hostOutput}`, exited: () => host?.exitCode !== null });
  });
});
