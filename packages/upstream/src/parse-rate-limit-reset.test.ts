import { parseRateLimitResetMs } from './parse-rate-limit-reset';

const NOW = Date.parse('2026-01-01T12:00:00Z');

describe('parseRateLimitResetMs', () => {
  it('takes retry-after first, even when the limits say otherwise', () => {
    expect(parseRateLimitResetMs({ 'retry-after': '7' }, NOW, [{ inMs: 30_000, exhausted: true }])).toBe(7_000);
    expect(parseRateLimitResetMs({ 'retry-after-ms': '1500' }, NOW, [{ inMs: 60_000, exhausted: true }])).toBe(1_500);
  });

  it('takes the latest reset of the limits used up', () => {
    const resets = [
      { inMs: 30_000, exhausted: true },
      { inMs: 45_000, exhausted: true },
      { inMs: 300_000, exhausted: false },
    ];
    expect(parseRateLimitResetMs({}, NOW, resets)).toBe(45_000);
  });

  it('takes the earliest reset named when no limit is used up', () => {
    expect(parseRateLimitResetMs({}, NOW, [{ inMs: 20_000, exhausted: false }, { inMs: 120, exhausted: false }])).toBe(120);
  });

  it('answers undefined when nothing is readable', () => {
    expect(parseRateLimitResetMs({ 'retry-after': 'soon' }, NOW, [])).toBeUndefined();
    expect(parseRateLimitResetMs({}, NOW, [])).toBeUndefined();
  });
});
