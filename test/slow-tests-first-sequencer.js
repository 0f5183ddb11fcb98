/**
 * Jest's own sequencer, except that test files it has no timing for (every file on a fresh clone)
 * start with the known-slow ones, so the last worker does not pick up a long file at the end.
 */
const { createRequire } = require('node:module');
const { relative } = require('node:path');

// @jest/test-sequencer is not a dependency of the workspace: it is reached through jest's own.
const requireFromJest = ['jest', 'jest-cli', 'jest-config'].reduce((from, name) => createRequire(from.resolve(`${name}/package.json`)), require);
const { default: TestSequencer } = requireFromJest('@jest/test-sequencer');

/**
 * Path prefixes (from the repository's root) of the slowest files, slowest first, as
 * `.test-results/jest.json` (written by ./scripts/test.sh) shows them: each file's endTime - startTime.
 */
const SLOW_FIRST = [
  'test/packaging/packed-packages-install.test.ts',
  'test/scale-out/two-instances.test.ts',
  'test/e2e/agents/claude-code-cli.test.ts',
  'test/e2e/agents/cache-affinity-measurement.test.ts',
  'test/panel/panel-browser.test.ts',
  'test/stores/postgres-',
  'test/e2e/agents/',
  'test/fuzz/random-bodies.test.ts',
  'test/e2e/example-server-process.test.ts',
  'test/architecture/lint-rules.test.ts',
  'test/docs/code-blocks-compile.test.ts',
  'test/scale-out/',
  'test/errors/upstream-connections.test.ts',
  'test/fuzz/',
];

class SlowTestsFirstSequencer extends TestSequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const untimed = new Set(sorted.filter(test => test.duration == null && !this.hasFailed(test)));
    const rank = test => {
      const path = relative(test.context.config.rootDir, test.path);
      const index = SLOW_FIRST.findIndex(prefix => path.startsWith(prefix));
      return index === -1 ? SLOW_FIRST.length : index;
    };
    const ordered = [...untimed]
      .map((test, position) => ({ test, position, rank: rank(test) }))
      .sort((a, b) => a.rank - b.rank || a.position - b.position)
      .map(({ test }) => test);
    let next = 0;
    return sorted.map(test => (untimed.has(test) ? ordered[next++] : test));
  }
}

module.exports = SlowTestsFirstSequencer;
