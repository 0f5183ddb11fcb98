import { extractCodeBlocks } from '../docs/extract-code-blocks';

const MOUNTING_HEADING = '## Mounting it in your app';

/** The first TypeScript block of the README's section on mounting the gateway in an existing app. */
export function readMountingSnippet(readme: string): string {
  const start = readme.indexOf(`\n${MOUNTING_HEADING}\n`);
  if (start < 0) throw new Error(`README.md has no "${MOUNTING_HEADING}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  const block = extractCodeBlocks('README.md', readme.slice(start, end < 0 ? undefined : end)).find(found => !found.skipped);
  if (!block) throw new Error(`README.md's "${MOUNTING_HEADING}" section has no TypeScript block`);
  return block.code;
}

/** The packages a snippet imports (`express`, `signalbox`, `@signalbox/panel`), without subpaths. */
export function importedPackages(code: string): string[] {
  const names = [...code.matchAll(/^import\s[^;]*?from\s+'([^']+)'/gm)].map(([, specifier]) => {
    const parts = specifier!.split('/');
    return specifier!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  });
  return [...new Set(names.filter(name => !name.startsWith('node:')))];
}

/**
 * The snippet as it must run in a test, which talks only to 127.0.0.1: its upstream's base URL
 * replaced by a loopback one, and its listener bound to a given loopback port. Each replaced text
 * must occur exactly once, so that a change to the snippet fails here rather than running
 * something else.
 */
export function onLoopback(code: string, replacements: Record<string, string>): string {
  let adapted = code;
  for (const [text, replacement] of Object.entries(replacements)) {
    const count = adapted.split(text).length - 1;
    if (count !== 1) throw new Error(`the README's mounting snippet contains ${JSON.stringify(text)} ${count} times, not once; update this test`);
    adapted = adapted.replace(text, () => replacement);
  }
  return adapted;
}
