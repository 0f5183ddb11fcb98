import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');

/**
 * The product's former name. It is spelled here in two pieces so that this file, which must name
 * it to look for it, does not contain it: the npm package of that name and another LLM proxy of that
 * name belong to others.
 */
const FORMER_NAME = ['switch', 'yard'].join('');

/** Every file git tracks (a fresh clone's files), relative to the repository root. */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(path => path !== '');
}

describe('the product name', () => {
  it('appears nowhere under its former name, in any case, in any tracked file (code, docs, fixtures, lockfile)', () => {
    const pattern = new RegExp(FORMER_NAME, 'i');
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter(path => {
      if (pattern.test(path)) return true;
      try {
        return pattern.test(readFileSync(join(root, path), 'latin1'));
      } catch {
        return false; // a file deleted in the working tree but not yet in the index
      }
    });
    expect(offenders).toEqual([]);
  });

  it('is what the entry package and the workspace are published as', () => {
    const entry = JSON.parse(readFileSync(join(root, 'packages/signalbox/package.json'), 'utf8')) as { name: string };
    const workspace = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string };
    expect(entry.name).toBe('signalbox');
    expect(workspace.name).toBe('signalbox-workspace');
  });
});
