// Removes build outputs whose source is gone: `tsc -b` writes dist/x.js for src/x.ts but never
// deletes it when src/x.ts is deleted or renamed, so a checkout that built before the change would
// run (and `pnpm pack` would ship) code that no longer exists. Run by the root `pnpm run build`
// after `tsc -b`. Only outputs that tsc makes (.js, .d.ts and their maps) in a folder that mirrors
// src/ are judged; the panel's bundle in dist/ui, made from ui/, is not under src/ and is left alone.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// The checkout to prune: this one, or the folder given as the first argument (for tests).
const root = process.argv[2] ?? join(import.meta.dirname, '..');
const OUTPUT = /\.(?:d\.ts|js)(?:\.map)?$/;

/** The source an output was made from could have been any of these. */
function sourcesOf(stem) {
  return ['.ts', '.tsx', '.mts', '.cts'].map(extension => stem + extension);
}

function prune(sourceDirectory, outputDirectory) {
  let removed = 0;
  for (const entry of readdirSync(outputDirectory, { withFileTypes: true })) {
    const output = join(outputDirectory, entry.name);
    if (entry.isDirectory()) {
      const source = join(sourceDirectory, entry.name);
      if (existsSync(source)) removed += prune(source, output);
      continue;
    }
    if (!OUTPUT.test(entry.name)) continue;
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
