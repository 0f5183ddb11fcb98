import { parseDurationMs, parseRateLimitResetMs } from './parse-rate-limit-reset';

const NOW = Date.parse('2026-01-01T12:00:00Z');

describe('parseRateLimitResetMs', () => {
  it('takes retry-after first, even when reset headers say otherwise', () => {
    expect(parseRateLimitResetMs({ 'retry-after': '7', 'x-ratelimit-reset-requests': '30s' }, NOW)).toBe(7_000);
    expect(parseRateLimitResetMs({ 'retry-after-ms': '1500', 'anthropic-ratelimit-requests-reset': '2026-01-01T12:01:00Z' }, NOW)).toBe(1_500);
  });

  it("reads Anthropic's RFC 3339 resets: the latest of the limits used up", () => {
    const headers = {
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2026-01-01T12:00:30Z',
      'anthropic-ratelimit-tokens-remaining': '0',
      'anthropic-ratelimit-tokens-reset': '2026-01-01T12:00:45Z',
      'anthropic-ratelimit-input-tokens-remaining': '12000',
      'anthropic-ratelimit-input-tokens-reset': '2026-01-01T12:05:00Z',
    };
    expect(parseRateLimitResetMs(headers, NOW)).toBe(45_000);
  });

  it("reads OpenAI's duration resets: the latest of the limits used up", () => {
    const headers = {
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '1m26.4s',
      'x-ratelimit-remaining-tokens': '15000',
      'x-ratelimit-reset-tokens': '6m0s',
    };
    expect(parseRateLimitResetMs(headers, NOW)).toBe(86_400);
  });

  it('takes the earliest reset named when no limit says it is used up', () => {
    expect(parseRateLimitResetMs({ 'x-ratelimit-reset-requests': '20s', 'x-ratelimit-reset-tokens': '120ms' }, NOW)).toBe(120);
  });

  it('never answers a reset in the past as negative, and answers undefined when nothing is readable', () => {
    expect(parseRateLimitResetMs({ 'anthropic-ratelimit-requests-reset': '2026-01-01T11:59:00Z' }, NOW)).toBe(0);
    expect(parseRateLimitResetMs({ 'x-ratelimit-reset-requests': 'soon', 'anthropic-ratelimit-tokens-reset': 'later' }, NOW)).toBeUndefined();
    expect(parseRateLimitResetMs({}, NOW)).toBeUndefined();
  });
});

describe('parseDurationMs', () => {
  it.each([
    ['12ms', 12],
    ['1.5s', 1_500],
    ['6m0s', 360_000],
    ['2h3m', 7_380_000],
  ])('reads %s as %i ms', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each(['', '5', 's', '1d', '1m garbage'])('refuses %j', text => {
    expect(parseDurationMs(text)).toBeUndefined();
  });
});
