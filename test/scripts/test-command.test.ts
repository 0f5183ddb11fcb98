/**
 * scripts/test.sh, run by bash in a small copy of a checkout whose pnpm is a stand-in: lint runs
 * while the build does, the tests' type-check and lint while jest does (each stand-in waits to see
 * the other started), the
 * script fails when the tests or a check fail, prints the checks' output, and ends with the
 * "N passed, N failed in S s" line.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const scripts = join(__dirname, '../../scripts');

/**
 * Stands in for pnpm. `exec jest` writes a report of 5 passed tests and JEST_FAILED failed ones;
 * `exec eslint` and `exec jest` each wait (at most ten seconds) until the other has started, and
 * the build (`run build`) until lint has.
 */
const PNPM_STAND_IN = `#!/usr/bin/env bash
await() { for _ in $(seq 200); do [ -e "$1" ] && return 0; sleep 0.05; done; echo "never saw $1"; return 1; }
case "$1 \${2:-}" in
  "--version "*) echo 10.0.0 ;;
  "install "*) mkdir -p node_modules ;;
  "run "*) await .lint-started || exit 1; mkdir -p packages/core/dist && echo built >packages/core/dist/index.js ;;
  "exec tsc") echo "tsc says \${TSC_SAYS:-nothing}"; exit "\${TSC_STATUS:-0}" ;;
  "exec eslint") touch .lint-started; await .jest-started || exit 1; echo "eslint says \${ESLINT_SAYS:-nothing}"; exit "\${ESLINT_STATUS:-0}" ;;
  "exec jest")
    touch .jest-started; await .lint-started || exit 1
    output=$(printf '%s\\n' "$@" | sed -n 's/^--outputFile=//p')
    failed=\${JEST_FAILED:-0}
    echo "{\\"numPassedTests\\":5,\\"numFailedTests\\":$failed,\\"numRuntimeErrorTestSuites\\":0,\\"numPendingTests\\":0}" >"$output"
    [ "$failed" = 0 ] ;;
esac
`;

describe('scripts/test.sh', () => {
  let checkout: string;

  beforeEach(() => {
    checkout = mkdtempSync(join(tmpdir(), 'signalbox-test-command-'));
    mkdirSync(join(checkout, 'scripts'));
    for (const script of ['test.sh', 'toolchain.sh', 'checkout-state.sh']) copyFileSync(join(scripts, script), join(checkout, 'scripts', script));
    for (const folder of ['packages/core/src', 'examples/server/src']) {
      mkdirSync(join(checkout, folder), { recursive: true });
      writeFileSync(join(checkout, folder, 'index.ts'), 'export {};\n');
    }
    writeFileSync(join(checkout, 'package.json'), '{"name":"workspace","private":true}\n');
    mkdirSync(join(checkout, 'bin'));
    writeFileSync(join(checkout, 'bin/pnpm'), PNPM_STAND_IN);
    chmodSync(join(checkout, 'bin/pnpm'), 0o755);
  });
  afterEach(() => rmSync(checkout, { recursive: true, force: true }));

  /** ./scripts/test.sh with the programs the tests start found, so nothing is installed. */
  function runTestCommand(environment: Record<string, string> = {}) {
    const found = { SIGNALBOX_CHROMIUM: '/bin/true', SIGNALBOX_REDIS_SERVER: '/bin/true', SIGNALBOX_POSTGRES_BIN: checkout };
    writeFileSync(join(checkout, 'initdb'), '');
    chmodSync(join(checkout, 'initdb'), 0o755);
    const result = spawnSync('bash', ['--norc', '--noprofile', 'scripts/test.sh'], {
      cwd: checkout,
      env: { PATH: `${join(checkout, 'bin')}:${process.env.PATH}`, HOME: checkout, ...found, ...environment },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines = result.stdout.trimEnd().split('\n');
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, last: lines.at(-1) };
  }

  it('runs the checks beside the tests and ends with the count of tests and the seconds it took', () => {
    const run = runTestCommand({ TSC_SAYS: 'types fine', ESLINT_SAYS: 'lint fine' });
    expect({ status: run.status, stderr: run.stderr }).toMatchObject({ status: 0 });
    expect(run.last).toMatch(/^5 passed, 0 failed in \d+ s$/);
    expect(run.stdout).toContain('== checks and tests, side by side');
    expect(run.stdout).toMatch(/== type-check-tests passed .*\n(.*\n)*tsc says types fine\n/);
    expect(run.stdout).toMatch(/== lint passed .*\n(.*\n)*eslint says lint fine\n/);
  });

  it('starts lint before the build and lets it run beside the build, the tests and the type-check', () => {
    const run = runTestCommand({ ESLINT_SAYS: 'lint fine' });
    expect({ status: run.status, stderr: run.stderr }).toMatchObject({ status: 0 });
    expect(run.stdout).toMatch(/== lint, beside the build .*\n== build .*\n(.*\n)*== checks and tests, side by side .*\n(.*\n)*== lint passed .*\n(.*\n)*eslint says lint fine\n/);
  });

  it('fails when lint fails although every test passed, and says so above the count', () => {
    const run = runTestCommand({ ESLINT_STATUS: '1', ESLINT_SAYS: 'an unused variable' });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/== lint FAILED .*\n(.*\n)*eslint says an unused variable\n/);
    expect(run.stdout).toMatch(/type-check or lint failed: see above\n5 passed, 0 failed in \d+ s\n$/);
  });

  it('fails when the type-check of the tests fails', () => {
    const run = runTestCommand({ TSC_STATUS: '2' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('== type-check-tests FAILED');
  });

  it('fails with jest when a test fails, the checks passing', () => {
    const run = runTestCommand({ JEST_FAILED: '2' });
    expect(run.status).toBe(1);
    expect(run.last).toMatch(/^5 passed, 2 failed in \d+ s$/);
  });
});
