// Removes build outputs whose source is gone: `tsc -b` writes dist/x.js for src/x.ts but never
// deletes it when src/x.ts is deleted or renamed, so a checkout that built before the change would
// run (and `pnpm pack` would ship) code that no longer exists. Run by the root `pnpm run build`
// after `tsc -b`. Only outputs that tsc makes (.js with its .d.ts, and their maps) are judged; the
// panel's bundle in dist/ui, made from ui/ with no declarations, is left alone.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// The checkout to prune: this one, or the folder given as the first argument (for tests).
const root = process.argv[2] ?? join(import.meta.dirname, '..');
const OUTPUT = /\.(?:d\.ts|js)(?:\.map)?$/;

/** The source an output was made from could have been any of these. */
function sourcesOf(stem) {
  return ['.ts', '.tsx', '.mts', '.cts'].map(extension => stem + extension);
}

/**
 * Whether tsc made this file: a declaration, a map, or a `.js` beside its declaration (declarations
 * are on for every package). The panel's bundle (dist/ui/panel.js) has neither, so it is never judged.
 */
function madeByTsc(directory, name) {
  if (/\.d\.ts(?:\.map)?$|\.js\.map$/.test(name)) return true;
  return name.endsWith('.js') && existsSync(join(directory, `${name.slice(0, -3)}.d.ts`));
}

function prune(sourceDirectory, outputDirectory) {
  let removed = 0;
  const entries = readdirSync(outputDirectory, { withFileTypes: true });
  const made = new Set(entries.filter(entry => entry.isFile() && madeByTsc(outputDirectory, entry.name)).map(entry => entry.name));
  for (const entry of entries) {
    const output = join(outputDirectory, entry.name);
    if (entry.isDirectory()) {
      removed += prune(join(sourceDirectory, entry.name), output);
      // A folder whose sources all went is left empty: it goes too.
      if (readdirSync(output).length === 0) rmSync(output, { recursive: true });
      continue;
    }
    if (!made.has(entry.name) || !OUTPUT.test(entry.name)) continue;
    const stem = join(sourceDirectory, entry.name.replace(OUTPUT, ''));
    if (sourcesOf(stem).some(source => existsSync(source))) continue;
    rmSync(output);
    removed++;
  }
  return removed;
}

let removed = 0;
for (const group of ['packages', 'examples']) {
  if (!existsSync(join(root, group))) continue;
  for (const name of readdirSync(join(root, group))) {
    const source = join(root, group, name, 'src');
    const output = join(root, group, name, 'dist');
    if (existsSync(source) && existsSync(output)) removed += prune(source, output);
  }
}
if (removed > 0) console.log(`build: removed ${removed} stale output file${removed === 1 ? '' : 's'} of deleted sources`);
