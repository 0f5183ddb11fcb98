/**
 * scripts/checkout-state.sh, run by bash in a small copy of a checkout: `ensure_installed` and
 * `ensure_built` call pnpm only when something they depend on changed since their last success.
 * The pnpm on the PATH here is a stand-in that logs its arguments and writes the outputs a build
 * would, so what is skipped and what is run can be counted.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const script = join(__dirname, '../../scripts/checkout-state.sh');
const INSTALL = 'install --frozen-lockfile --reporter=silent --config.confirm-modules-purge=false';
const BUILD = 'run --silent build';

/** Stands in for pnpm: logs each call; `run` builds dist/ from src/ (or fails, or edits a source meanwhile, when asked). */
const PNPM_STAND_IN = `#!/usr/bin/env bash
echo "$*" >>"$CALLS"
case "$1" in
  install) mkdir -p node_modules/.pnpm ;;
  run)
    if [ -n "\${FAIL_BUILD:-}" ]; then exit 1; fi
    mkdir -p packages/core/dist && cat packages/core/src/*.ts >packages/core/dist/index.js && echo '{}' >packages/core/tsconfig.tsbuildinfo
    if [ -n "\${EDIT_DURING_BUILD:-}" ]; then echo '// meanwhile' >>packages/core/src/index.ts; fi ;;
esac
`;

const FILES: Record<string, string> = {
  'package.json': '{"name":"workspace","private":true}\n',
  'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
  'pnpm-workspace.yaml': 'packages:\n  - packages/*\n  - examples/*\n',
  'packages/core/package.json': '{"name":"@signalbox/core","version":"0.1.0"}\n',
  'packages/core/src/index.ts': 'export const answer = 42;\n',
  'examples/server/package.json': '{"name":"server","private":true}\n',
  'examples/server/src/main.ts': "console.log('hi');\n",
};

describe('scripts/checkout-state.sh', () => {
  let checkout: string;

  /** `ensure_installed; ensure_built` as start.sh runs them: the pnpm calls made and what was printed. */
  function prepare(environment: Record<string, string> = {}) {
    const calls = join(checkout, '.calls');
    writeFileSync(calls, '');
    const result = spawnSync('bash', ['--norc', '--noprofile', '-c', 'set -euo pipefail; source scripts/checkout-state.sh; ensure_installed; ensure_built'], {
      cwd: checkout,
      env: { PATH: `${join(checkout, 'bin')}:${process.env.PATH}`, CALLS: calls, ...environment },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, calls: readFileSync(calls, 'utf8').split('\n').filter(Boolean) };
  }

  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(checkout, path)), { recursive: true });
    writeFileSync(join(checkout, path), text);
  };

  beforeEach(() => {
    checkout = mkdtempSync(join(tmpdir(), 'signalbox-checkout-'));
    for (const [path, text] of Object.entries(FILES)) write(path, text);
    mkdirSync(join(checkout, 'scripts'));
    copyFileSync(script, join(checkout, 'scripts/checkout-state.sh'));
    write('bin/pnpm', PNPM_STAND_IN);
    chmodSync(join(checkout, 'bin/pnpm'), 0o755);
  });
  afterEach(() => rmSync(checkout, { recursive: true, force: true }));

  it('installs and builds a fresh checkout, saying so on stderr only', () => {
    const first = prepare();
    expect(first).toMatchObject({ status: 0, stdout: '', calls: [INSTALL, BUILD] });
    expect(first.stderr).toMatch(/^bash: installing dependencies with pnpm .*\nbash: building the packages .*\n$/);
  });

  it('does nothing, silently, when nothing changed', () => {
    prepare();
    expect(prepare()).toEqual({ status: 0, stdout: '', stderr: '', calls: [] });
  });

  it.each([
    ['an edited source', () => appendFileSync(join(checkout, 'packages/core/src/index.ts'), 'export const more = 1;\n')],
    ['a source edited to the same size', () => write('packages/core/src/index.ts', 'export const answer = 43;\n')],
    ['an added source', () => write('examples/server/src/extra.ts', 'export {};\n')],
    ['a removed source', () => rmSync(join(checkout, 'examples/server/src/main.ts'))],
    ['a deleted output', () => rmSync(join(checkout, 'packages/core/dist/index.js'))],
    ['a deleted build info', () => rmSync(join(checkout, 'packages/core/tsconfig.tsbuildinfo'))],
  ])('rebuilds, without reinstalling, after %s', (_change, change) => {
    prepare();
    change();
    expect(prepare().calls).toEqual([BUILD]);
    expect(prepare().calls).toEqual([]);
  });

  it.each([
    ['the lockfile', 'pnpm-lock.yaml'],
    ["a package's manifest", 'packages/core/package.json'],
    ['the workspace manifest', 'package.json'],
  ])('reinstalls and rebuilds after a change to %s', (_what, path) => {
    prepare();
    appendFileSync(join(checkout, path), '\n');
    expect(prepare().calls).toEqual([INSTALL, BUILD]);
  });

  it('reinstalls and rebuilds once node_modules is gone', () => {
    prepare();
    rmSync(join(checkout, 'node_modules'), { recursive: true });
    expect(prepare().calls).toEqual([INSTALL, BUILD]);
  });

  it('builds again after a build that failed', () => {
    prepare();
    appendFileSync(join(checkout, 'packages/core/src/index.ts'), 'export const broken = ;\n');
    expect(prepare({ FAIL_BUILD: '1' })).toMatchObject({ status: 1, calls: [BUILD] });
    expect(prepare().calls).toEqual([BUILD]);
  });

  it('builds again when a source was edited while the build ran', () => {
    prepare();
    appendFileSync(join(checkout, 'packages/core/src/index.ts'), 'export const more = 1;\n');
    expect(prepare({ EDIT_DURING_BUILD: '1' }).calls).toEqual([BUILD]);
    expect(prepare().calls).toEqual([BUILD]);
    expect(prepare().calls).toEqual([]);
  });
});
