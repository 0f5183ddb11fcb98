/**
 * Three jest projects over sources (no build needed), all run by `pnpm test` and `./scripts/test.sh`:
 * - `unit`: the tests beside the code in packages/ and examples/;
 * - `integration`: the cross-package tests in test/ (the example server over loopback, real SDKs);
 * - `fuzz`: the property-based tests in test/fuzz, at full strength unless `SIGNALBOX_FUZZ_RUNS`
 *   caps the cases per property (see test/fuzz/fuzz-runs.ts).
 * Pick some with `--selectProjects unit integration` (or `pnpm test:unit` and friends).
 */
const { availableParallelism } = require('node:os');

const shared = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj|cj)s$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  // ESM-only dependencies are compiled to CommonJS for jest; so are the `.cjs` bundles of
  // @mastra/core, whose `import()` of ESM-only packages (p-map, p-retry) jest cannot run as is,
  // the OTLP exporter's transport, which loads `http`/`https` with `import()`, and jose, openid-client
  // and oauth4webapi (ESM-only).
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?(ai|@ai-sdk|@workflow|@standard-schema|@vercel|eventsource-parser|zod|@mastra|p-map|p-retry|is-network-error|@opentelemetry[+/]otlp-exporter-base|jose|openid-client|oauth4webapi)[@/+])'],
  moduleNameMapper: {
    '^signalbox$': '<rootDir>/packages/signalbox/src/index.ts',
    '^@signalbox/([^/]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^@signalbox/([^/]+)/testing$': '<rootDir>/packages/$1/src/testing/index.ts',
    '^@signalbox/([^/]+)/sql$': '<rootDir>/packages/$1/src/sql/index.ts',
  },
};

module.exports = {
  testTimeout: 20000,
  // Two workers even on a 2-core machine (jest's default there is one). Not more: with four, the
  // integration tests took about a sixth more CPU and finished no sooner: they use the CPU more
  // than they wait on servers and child processes.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // Known-slow files start first when jest has no timings for them (a fresh clone).
  testSequencer: '<rootDir>/test/slow-tests-first-sequencer.js',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/packages', '<rootDir>/examples'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    },
    {
      ...shared,
      displayName: 'integration',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/fuzz/'],
      // One PostgreSQL server for the run, in which each file makes databases of its own.
      globalSetup: '<rootDir>/test/helpers/shared-services-global-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/shared-services-global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'fuzz',
      roots: ['<rootDir>/test/fuzz'],
    },
  ],
};
