/** One jest run over unit tests (beside the code) and cross-package tests (test/). Sources, not builds. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/test', '<rootDir>/examples'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/)?(ai|@ai-sdk|@workflow|@standard-schema|@vercel|eventsource-parser|zod)[@/+])'],
  moduleNameMapper: {
    '^switchyard$': '<rootDir>/packages/switchyard/src/index.ts',
    '^@switchyard/([^/]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^@switchyard/([^/]+)/testing$': '<rootDir>/packages/$1/src/testing/index.ts',
  },
  testTimeout: 20000,
};
