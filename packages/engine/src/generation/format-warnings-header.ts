import type { TranslationWarning } from '@switchyard/core';

/** The header that lists fields a translation dropped or approximated. */
export const WARNINGS_HEADER = 'x-switchyard-warnings';

/** `temperature (lossy-conversion), stopSequences (unsupported-field)`; empty object when there are none. */
export function formatWarningsHeader(warnings: readonly TranslationWarning[]): Record<string, string> {
  if (warnings.length === 0) return {};
  const unique = [...new Set(warnings.map(warning => `${warning.field} (${warning.type})`))];
  return { [WARNINGS_HEADER]: unique.join(', ') };
}
