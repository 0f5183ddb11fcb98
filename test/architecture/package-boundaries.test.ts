import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const packagesDirectory = join(root, 'packages');

/** What each package may depend on at runtime (workspace packages and third-party). */
const ALLOWED: Record<string, readonly string[]> = {
  core: [],
  sse: ['@signalbox/core', 'eventsource-parser'],
  'codec-openai-shared': ['@signalbox/core', 'zod'],
  'codec-openai-responses': ['@signalbox/core', '@signalbox/codec-openai-shared', 'zod'],
  'codec-openai-chat': ['@signalbox/core', '@signalbox/codec-openai-shared', 'zod'],
  'codec-anthropic-messages': ['@signalbox/core', 'zod'],
  'codec-google-gemini': ['@signalbox/core', 'zod'],
  upstream: ['@signalbox/core', 'undici'],
  // An upstream kind: a cloud's URL, auth and framing, on core's contract; its token requests through the cloud's own SDK.
  'kind-azure-openai': ['@signalbox/core', '@signalbox/upstream', '@azure/identity', 'zod'],
  'kind-bedrock': [
    '@signalbox/core',
    '@signalbox/upstream',
    '@aws-sdk/credential-providers',
    '@smithy/core',
    '@smithy/signature-v4',
    '@smithy/types',
    '@smithy/util-utf8',
    'zod',
  ],
  'kind-vertex': ['@signalbox/core', '@signalbox/upstream', 'google-auth-library', 'zod'],
  accounts: ['@signalbox/core', 'microdiff', 'zod'],
  engine: ['@signalbox/accounts', '@signalbox/core', '@signalbox/sse', '@signalbox/upstream', 'zod'],
  'store-sqlite': ['@signalbox/accounts', '@signalbox/core'],
  // A Limiter implementation: the engine's contract, defaults and refusals, on Redis.
  'limiter-redis': ['@signalbox/accounts', '@signalbox/core', '@signalbox/engine', 'ioredis'],
  'store-postgres': ['@signalbox/accounts', '@signalbox/core', 'pg'],
  // An EngineObserver on the OpenTelemetry API; the SDK and exporter are the host's choice.
  'tracing-otel': ['@signalbox/core', '@signalbox/engine', '@opentelemetry/api', '@opentelemetry/core'],
  // An engine observer on prom-client: the host hands it the engine's and the store's reads at run time.
  'metrics-prometheus': ['@signalbox/core', '@signalbox/engine', 'prom-client'],
  // `ws` serves Responses' WebSocket mode on the host's server (gateway.attachUpgrade).
  express: ['@signalbox/accounts', '@signalbox/core', '@signalbox/engine', '@signalbox/sse', 'express', 'ws'],
  simulator: [],
  // The panel calls the admin service in-process; its page's libraries (Preact, uPlot) are bundled at build time.
  // It mounts the admin operations, reads bodies and renders errors with the Express adapters' own
  // helpers, so that the admin API and the panel cannot drift apart (nothing of the engine itself).
  // Its single sign-on is an OpenID Connect relying party on the certified openid-client.
  panel: ['@signalbox/accounts', '@signalbox/core', '@signalbox/express', 'express', 'openid-client'],
  signalbox: [
    '@signalbox/accounts',
    '@signalbox/core',
    '@signalbox/engine',
    '@signalbox/express',
    '@signalbox/codec-openai-responses',
    '@signalbox/codec-anthropic-messages',
    '@signalbox/codec-openai-chat',
    '@signalbox/codec-google-gemini',
    '@signalbox/kind-azure-openai',
    '@signalbox/kind-bedrock',
    '@signalbox/kind-vertex',
    'express',
  ],
};

function readManifest(name: string) {
  return JSON.parse(readFileSync(join(packagesDirectory, name, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
}

function sourceImports(name: string): Set<string> {
  const found = new Set<string>();
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !path.includes('/testing/')) {
        for (const match of readFileSync(path, 'utf8').matchAll(/from '([^'.][^']*)'/g)) {
          const specifier = match[1]!;
          if (specifier.startsWith('node:')) continue;
          const parts = specifier.split('/');
          found.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
        }
      }
    }
  };
  walk(join(packagesDirectory, name, 'src'));
  return found;
}

describe('package boundaries', () => {
  const packages = readdirSync(packagesDirectory).filter(name => !name.startsWith('.'));

  it('knows every package', () => {
    expect(packages.sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it.each(Object.keys(ALLOWED))('%s declares only the dependencies its layer allows', name => {
    const manifest = readManifest(name);
    const declared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
    expect(declared.filter(dependency => !ALLOWED[name]!.includes(dependency))).toEqual([]);
    // The entry package is the product's own name; every other package is scoped.
    expect(manifest.name).toBe(name === 'signalbox' ? 'signalbox' : `@signalbox/${name}`);
  });

  it.each(Object.keys(ALLOWED))('%s imports only what it declares (no codec imports another codec)', name => {
    const imported = [...sourceImports(name)];
    expect(imported.filter(specifier => !ALLOWED[name]!.includes(specifier))).toEqual([]);
  });

  it('gives every package a README saying what it may import', () => {
    for (const name of packages) {
      const readme = readFileSync(join(packagesDirectory, name, 'README.md'), 'utf8');
      expect(readme).toMatch(/may import/i);
    }
  });
});
