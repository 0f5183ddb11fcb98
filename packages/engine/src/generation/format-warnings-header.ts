import type { TranslationWarning } from '@signalbox/core';

/** The header that lists fields a translation dropped or approximated. */
export const WARNINGS_HEADER = 'x-signalbox-warnings';

/**
 * How many distinct warnings the header lists. A request can cause one per tool or per flag it
 * sent; past this the header says how many more there were, so it stays a few kilobytes at most.
 */
export const MAX_LISTED_WARNINGS = 40;

/**
 * The entries of the warnings header: `temperature (lossy-conversion)`, each distinct warning once.
 * Past `MAX_LISTED_WARNINGS` distinct entries the rest are counted in a last entry: `and 12 more`.
 * The usage ledger keeps the same list, so a row says what its client was told.
 */
export function listWarnings(warnings: readonly TranslationWarning[]): string[] {
  const unique = [...new Set(warnings.map(warning => `${warning.field} (${warning.type})`))];
  const listed = unique.slice(0, MAX_LISTED_WARNINGS);
  if (unique.length > listed.length) listed.push(`and ${unique.length - listed.length} more`);
  return listed;
}

/**
 * `temperature (lossy-conversion), stopSequences (unsupported-field)`; empty object when there are
 * none. Past `MAX_LISTED_WARNINGS` distinct entries the rest are counted: `…, and 12 more`.
 */
export function formatWarningsHeader(warnings: readonly TranslationWarning[]): Record<string, string> {
  return warningsHeader(listWarnings(warnings));
}

/** The header made of entries `listWarnings` already listed; an empty object when there are none. */
export function warningsHeader(listed: readonly string[]): Record<string, string> {
  return listed.length === 0 ? {} : { [WARNINGS_HEADER]: listed.join(', ') };
}
