/**
 * scripts/prune-stale-outputs.mjs, run by node on a small copy of a checkout's layout: outputs of
 * deleted sources go, everything else (live outputs, the panel's bundle, files tsc does not make) stays.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const script = join(__dirname, '../../scripts/prune-stale-outputs.mjs');

function layOut(root: string, files: readonly string[]): void {
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), '');
  }
}

describe('prune-stale-outputs', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'signalbox-prune-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('removes the .js, .d.ts and map outputs of a deleted source or folder and keeps the rest, the panel bundle included', () => {
    layOut(root, [
      'packages/core/src/index.ts',
      'packages/core/src/errors/live.ts',
      'packages/core/src/page.tsx',
      'packages/core/dist/index.js',
      'packages/core/dist/index.d.ts',
      'packages/core/dist/errors/live.js.map',
      'packages/core/dist/errors/gone.js',
      'packages/core/dist/errors/gone.js.map',
      'packages/core/dist/errors/gone.d.ts',
      'packages/core/dist/errors/gone.d.ts.map',
      'packages/core/dist/page.js',
      'packages/core/dist/page.d.ts',
      'packages/core/dist/moved/row.js',
      'packages/core/dist/moved/row.d.ts',
      'packages/core/dist/notes.txt',
      'packages/panel/src/index.ts',
      'packages/panel/dist/ui/panel.js',
      'examples/server/src/main.ts',
      'examples/server/dist/old-main.js',
      'examples/server/dist/old-main.d.ts',
    ]);
    const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('removed 8 stale output files');
    const kept = (path: string) => existsSync(join(root, path));
    expect(['dist/errors/gone.js', 'dist/errors/gone.js.map', 'dist/errors/gone.d.ts', 'dist/errors/gone.d.ts.map'].some(path => kept(`packages/core/${path}`))).toBe(false);
    expect(kept('examples/server/dist/old-main.js') || kept('examples/server/dist/old-main.d.ts')).toBe(false);
    // A folder of src/ that is gone entirely (here moved/) leaves nothing behind either.
    expect(kept('packages/core/dist/moved')).toBe(false);
    for (const path of ['index.js', 'index.d.ts', 'errors/live.js.map', 'page.js', 'page.d.ts', 'notes.txt']) expect(kept(`packages/core/dist/${path}`)).toBe(true);
    expect(kept('packages/panel/dist/ui/panel.js')).toBe(true);
  });

  it('says nothing when nothing is stale', () => {
    layOut(root, ['packages/core/src/index.ts', 'packages/core/dist/index.js']);
    const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
  });
});
