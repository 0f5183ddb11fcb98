// Lint: typescript-eslint (type-aware where it matters for stream code) plus the package boundaries
// of the architecture: codecs never import each other, only `express` imports Express, only `sse`
// imports eventsource-parser, core imports nothing, accounts and the stores never import the engine.
import { join } from 'node:path';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const restrict = (patterns, paths = []) => ({
  'no-restricted-imports': ['error', { paths, patterns }],
});
const deepImports = { group: ['@signalbox/*/src', '@signalbox/*/src/*', '@signalbox/*/dist/*'], message: 'Import packages by name, not their internals.' };
const express = { group: ['express'], message: 'Only @signalbox/express (and the examples) may import express.' };
const eventsource = { group: ['eventsource-parser', 'eventsource-parser/*'], message: 'Only @signalbox/sse frames SSE.' };
const codecs = { group: ['@signalbox/codec-*'], message: 'Codecs are passed in by the host; never import one here.' };
const codecsButShared = { group: ['@signalbox/codec-*', '!@signalbox/codec-openai-shared'], message: 'Codecs never import each other.' };
const layer = (names, why) => ({ group: names.map(name => `@signalbox/${name}`), message: why });

export default tseslint.config(
  // The tests' scratch files (the documentation's code blocks) come and go while lint runs beside the tests.
  {
    ignores: [
      ...['**/dist/**', '**/node_modules/**', '.tools/**', 'coverage/**', '.test-results/**', '**/__fixtures__/**', '**/*.js', '**/*.mjs', '!scripts/bench/*.mjs'],
      'test/docs/.snippets/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      // import-x reads only `.js` files and resolves only Node's way unless told otherwise: without
      // these two settings every relative `.ts` import would be unresolved. The resolver takes the
      // `paths` of tsconfig.eslint.json (the tests'), so `@signalbox/*` and `signalbox` resolve to
      // the packages' sources (not to a `dist/` that may not be built). Import cycles are found by
      // test/architecture/import-cycles.test.ts, which reads the graph once where `import-x/no-cycle`
      // walked it again from every import.
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: join(import.meta.dirname, 'tsconfig.eslint.json') })],
    },
    languageOptions: {
      parserOptions: {
        // Both read the packages' sources, never their build: lint runs beside the build.
        project: ['./tsconfig.eslint.json', './tsconfig.eslint-panel-ui.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-unresolved': 'error',
      ...restrict([deepImports, express, eventsource]),
    },
  },
  { files: ['packages/core/src/**/*.ts'], rules: restrict([deepImports, { group: ['@signalbox/*', 'zod', 'express', 'eventsource-parser'], message: 'core imports nothing.' }]) },
  { files: ['packages/sse/src/**/*.ts'], rules: restrict([deepImports, express, codecs, layer(['engine', 'upstream', 'express'], 'sse sits under the engine.')]) },
  {
    files: ['packages/codec-openai-responses/src/**/*.ts', 'packages/codec-openai-chat/src/**/*.ts', 'packages/codec-openai-shared/src/**/*.ts'],
    rules: restrict([deepImports, express, eventsource, codecsButShared, layer(['engine', 'upstream', 'express', 'sse'], 'Codecs see only core.')]),
  },
  { files: ['packages/codec-anthropic-messages/src/**/*.ts', 'packages/codec-google-gemini/src/**/*.ts'], rules: restrict([deepImports, express, eventsource, codecs, layer(['engine', 'upstream', 'express', 'sse'], 'Codecs see only core.')]) },
  // An upstream kind sees core's contract and the upstream package's token keeper, never a codec or the engine.
  {
    files: ['packages/kind-*/src/**/*.ts'],
    rules: restrict([deepImports, express, eventsource, codecs, layer(['engine', 'express', 'sse', 'accounts'], 'An upstream kind sees only core and upstream.')]),
  },
  { files: ['packages/upstream/src/**/*.ts'], rules: restrict([deepImports, express, eventsource, codecs, layer(['engine', 'express', 'sse'], 'upstream is protocol-blind.')]) },
  {
    files: ['packages/accounts/src/**/*.ts'],
    rules: restrict([
      deepImports,
      express,
      eventsource,
      codecs,
      layer(['engine', 'express', 'upstream', 'sse', 'store-sqlite', 'limiter-redis', 'store-postgres', 'simulator'], 'Accounts sit under the engine and the stores: they see only core.'),
      { group: ['undici', 'rate-limiter-flexible'], message: 'Accounts know nothing of upstream calls or rate windows.' },
      { group: ['pg'], message: 'Accounts define the store contract; a database driver belongs to its store package.' },
    ]),
  },
  {
    files: ['packages/store-sqlite/src/**/*.ts', 'packages/store-postgres/src/**/*.ts'],
    rules: restrict([
      deepImports,
      express,
      eventsource,
      codecs,
      layer(['engine', 'express', 'upstream', 'sse', 'simulator', 'limiter-redis'], 'A store implements the AccountStore contract of @signalbox/accounts; it never needs the engine.'),
    ]),
  },
  {
    files: ['packages/limiter-redis/src/**/*.ts'],
    rules: restrict([
      deepImports,
      express,
      eventsource,
      codecs,
      layer(['express', 'upstream', 'sse', 'store-sqlite', 'store-postgres', 'simulator', 'panel'], 'A limiter implements the Limiter contract of @signalbox/engine; it never needs the transport or the upstreams.'),
    ]),
  },
  { files: ['packages/engine/src/**/*.ts'], rules: restrict([deepImports, express, eventsource, codecs, layer(['express'], 'The engine is framework-free.'), layer(['limiter-redis'], 'A Limiter implementation sits above the engine; the host passes it in.')]) },
  { files: ['packages/express/src/**/*.ts'], rules: restrict([deepImports, eventsource, codecs, layer(['upstream'], 'Adapters talk to the engine only.')]) },
  // Metrics see the engine's observer types and core; the host hands them the engine and store at run time.
  {
    files: ['packages/metrics-prometheus/src/**/*.ts'],
    ignores: ['packages/metrics-prometheus/src/**/*.test.ts'],
    rules: restrict([deepImports, express, eventsource, codecs, layer(['express', 'upstream', 'accounts', 'sse', 'store-sqlite', 'store-postgres', 'limiter-redis', 'simulator'], 'Metrics import prom-client, the engine and core only.')]),
  },
  { files: ['packages/metrics-prometheus/src/**/*.test.ts'], rules: restrict([deepImports, express, eventsource]) },
  { files: ['packages/simulator/src/**/*.ts'], rules: restrict([deepImports, express, eventsource, { group: ['@signalbox/*'], message: 'The simulator stays independent of the gateway it checks.' }]) },
  // The entry package bundles the host-facing packages (the Express adapters among them) and nothing below.
  { files: ['packages/signalbox/src/**/*.ts'], rules: restrict([deepImports, eventsource, layer(['upstream', 'sse', 'simulator', 'store-sqlite', 'store-postgres', 'limiter-redis'], 'The entry package bundles only what hosts use.')]) },
  // The panel is a host-facing adapter over the admin service: Express, accounts, and the Express
  // adapters' admin operations, body reading and error rendering (so the admin API and the panel
  // share one of each), nothing of the request pipeline. Its browser code (ui/) runs in the page and
  // imports no workspace package.
  {
    files: ['packages/panel/src/**/*.ts'],
    rules: restrict([deepImports, eventsource, codecs, layer(['engine', 'upstream', 'sse', 'store-sqlite', 'store-postgres', 'simulator'], 'The panel talks to the admin service only.')]),
  },
  // The page may take the shapes the panel API answers with from accounts (`import type`, erased from the bundle), nothing else.
  {
    files: ['packages/panel/ui/**/*.ts', 'packages/panel/ui/**/*.tsx'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            deepImports,
            express,
            eventsource,
            { group: ['node:*', '@signalbox/*', '!@signalbox/accounts'], message: 'The panel page runs in the browser: it reaches the server through its API only.' },
            { group: ['@signalbox/accounts'], allowTypeImports: true, message: 'The panel page takes only types from accounts (import type).' },
          ],
        },
      ],
    },
  },
  // Tests may use the SSE test helpers and real SDKs.
  {
    files: ['packages/codec-*/src/**/*.test.ts'],
    rules: restrict([deepImports, express, eventsource, { group: ['@signalbox/engine', '@signalbox/express', '@signalbox/upstream'], message: 'Codec tests stay at the codec level.' }]),
  },
  // Engine and adapter tests (and the engine's test harness) run the pipeline with the real codecs.
  {
    files: ['packages/engine/src/**/*.test.ts', 'packages/engine/src/testing/**/*.ts'],
    rules: restrict([deepImports, express, eventsource, layer(['express'], 'The engine is framework-free.')]),
  },
  { files: ['packages/express/src/**/*.test.ts'], rules: restrict([deepImports, eventsource]) },
  { files: ['test/**/*.ts', 'examples/**/*.ts'], rules: restrict([deepImports]) },
  // The benchmark's scripts are plain Node ES modules.
  {
    files: ['scripts/bench/*.mjs'],
    languageOptions: {
      globals: Object.fromEntries(['process', 'console', 'performance', 'Buffer', 'URL', 'setTimeout', 'clearTimeout', 'fetch', 'Response', 'Headers'].map(name => [name, 'readonly'])),
    },
  },
);
