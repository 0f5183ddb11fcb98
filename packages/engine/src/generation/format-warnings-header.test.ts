import type { TranslationWarning } from '@signalbox/core';
import { formatWarningsHeader, MAX_LISTED_WARNINGS } from './format-warnings-header';

describe('formatWarningsHeader', () => {
  it('lists each distinct warning once as "field (type)", and nothing when there are none', () => {
    const warning: TranslationWarning = { type: 'unknown-field', field: 'brand_new_field' };
    expect(formatWarningsHeader([warning, warning, { type: 'lossy-conversion', field: 'temperature', details: 'clamped' }])).toEqual({
      'x-signalbox-warnings': 'brand_new_field (unknown-field), temperature (lossy-conversion)',
    });
    expect(formatWarningsHeader([])).toEqual({});
  });

  it(`lists at most ${MAX_LISTED_WARNINGS} warnings and counts the rest, so thousands of warnings make a short header`, () => {
    const warnings = Array.from({ length: 3000 }, (_, index): TranslationWarning => ({ type: 'unsupported-field', field: `tools: custom tool_${index}` }));
    const header = formatWarningsHeader(warnings)['x-signalbox-warnings']!;
    const entries = header.split(', ');
    expect(entries).toHaveLength(MAX_LISTED_WARNINGS + 1);
    expect(entries[0]).toBe('tools: custom tool_0 (unsupported-field)');
    expect(entries.at(-1)).toBe(`and ${3000 - MAX_LISTED_WARNINGS} more`);
    expect(header.length).toBeLessThan(2000);
  });
});
