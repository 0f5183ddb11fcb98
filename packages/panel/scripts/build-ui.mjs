// Bundles the panel's browser code (ui/) into dist/ui: index.html, panel.js and panel.css, minified,
// with no source maps and nothing fetched at run time. Run by the root `pnpm run build`, which
// ./scripts/test.sh and ./scripts/start.sh call. Prints the bundle's size, minified and gzipped.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const out = join(root, 'dist', 'ui');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { panel: join(root, 'ui', 'main.tsx') },
  outdir: out,
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(root, 'ui', 'index.html'), join(out, 'index.html'));
const sizes = ['panel.js', 'panel.css'].map(name => {
  const bytes = readFileSync(join(out, name));
  return `${name} ${(bytes.length / 1024).toFixed(1)} KB (${(gzipSync(bytes).length / 1024).toFixed(1)} KB gzipped)`;
});
if (process.env.PANEL_BUILD_QUIET !== '1') console.error(`panel bundle: ${sizes.join(', ')}`);
