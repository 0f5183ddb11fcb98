import type { TranslationWarning } from '@switchyard/core';

/** The header that lists fields a translation dropped or approximated. */
export const WARNINGS_HEADER = 'x-switchyard-warnings';

/**
 * How many distinct warnings the header lists. A request can cause one per tool or per flag it
 * sent; past this the header says how many more there were, so it stays a few kilobytes at most.
 */
export const MAX_LISTED_WARNINGS = 40;

/**
 * `temperature (lossy-conversion), stopSequences (unsupported-field)`; empty object when there are
 * none. Past `MAX_LISTED_WARNINGS` distinct entries the rest are counted: `…, and 12 more`.
 */
export function formatWarningsHeader(warnings: readonly TranslationWarning[]): Record<string, string> {
  if (warnings.length === 0) return {};
  const unique = [...new Set(warnings.map(warning => `${warning.field} (${warning.type})`))];
  const listed = unique.slice(0, MAX_LISTED_WARNINGS);
  if (unique.length > listed.length) listed.push(`and ${unique.length - listed.length} more`);
  return { [WARNINGS_HEADER]: listed.join(', ') };
}
